// Calls of the company's department tree.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DepartmentAddRequest, DepartmentNode, DepartmentUpdateRequest } from '@genset/protocol';
import { get, post } from '../../api/request.ts';

export const departmentKeys = { tree: ['admin', 'departments'] as const };

export function useDepartmentTree() {
  return useQuery({
    queryKey: departmentKeys.tree,
    queryFn: ({ signal }) => get<DepartmentNode[]>('/dept/list', undefined, { signal }),
  });
}

function useInvalidate() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: departmentKeys.tree }),
      client.invalidateQueries({ queryKey: ['admin', 'users'] }),
    ]);
}

export function useAddDepartment() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: DepartmentAddRequest) => post<{ id: number }>('/dept/add', body, { silent: true }),
    onSuccess: invalidate,
  });
}

export function useUpdateDepartment() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: DepartmentUpdateRequest) => post<null>('/dept/update', body, { silent: true }),
    onSuccess: invalidate,
  });
}

export function useDeleteDepartment() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: number) => post<null>('/dept/delete', { id }),
    onSuccess: invalidate,
  });
}

/** Every department of the tree with its depth, in tree order (for lists and "move to" choices). */
export function flattenDepartments(nodes: DepartmentNode[], depth = 0): { node: DepartmentNode; depth: number }[] {
  return nodes.flatMap((node) => [{ node, depth }, ...flattenDepartments(node.children, depth + 1)]);
}

/** The ids of a department and every one below it. */
export function branchIds(node: DepartmentNode): number[] {
  return [node.id, ...node.children.flatMap(branchIds)];
}
