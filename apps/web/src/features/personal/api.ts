// Calls of the personal centre: password, profile, message settings, account deletion.
import type { ChangePasswordRequest, SetMessageRequest } from '@genset/protocol';
import { post } from '../../api/request.ts';

export function changePassword(values: ChangePasswordRequest): Promise<unknown> {
  return post('/user/password', values);
}

export function updateNickname(nickname: string): Promise<unknown> {
  return post('/user/updateProfile', { nickname: nickname.trim() });
}

export function setMessages(values: SetMessageRequest): Promise<unknown> {
  return post('/user/setMessage', values);
}

export function deleteAccount(password: string): Promise<unknown> {
  return post('/user/delUser', { password });
}
