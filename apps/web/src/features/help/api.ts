// The user manual: a list of pages and each page's Markdown, in the request's language.
import { useQuery } from '@tanstack/react-query';
import { get } from '../../api/request.ts';

export interface HelpEntry {
  slug: string;
  title: string;
}

export interface HelpPage extends HelpEntry {
  markdown: string;
}

export function useHelpList() {
  return useQuery({
    queryKey: ['help', 'list', {}],
    queryFn: ({ signal }) => get<HelpEntry[]>('/help/list', undefined, { signal }),
  });
}

export function useHelpPage(slug: string | null) {
  return useQuery({
    queryKey: ['help', 'info', { slug }],
    queryFn: ({ signal }) => get<HelpPage>('/help/info', { slug: slug ?? '' }, { signal }),
    enabled: Boolean(slug),
  });
}
