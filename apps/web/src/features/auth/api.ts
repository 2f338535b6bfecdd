// Calls of signing in, registering and resetting a password.
import type {
  CodeLoginRequest,
  ForgetPasswordRequest,
  LoginRequest,
  LoginResponse,
  RegisterRequest,
  SendMessageRequest,
} from '@genset/protocol';
import { post } from '../../api/request.ts';
import { currentHostname } from '../../api/company.ts';

export type SmsPurpose = SendMessageRequest['purpose'];

export function loginWithPassword(values: Pick<LoginRequest, 'username' | 'password'>): Promise<LoginResponse> {
  return post<LoginResponse>('/user/login', {
    ...values,
    username: values.username.trim(),
    hostname: currentHostname(),
  });
}

export function loginWithCode(values: Pick<CodeLoginRequest, 'username' | 'code'>): Promise<LoginResponse> {
  return post<LoginResponse>('/user/codelogin', {
    ...values,
    username: values.username.trim(),
    hostname: currentHostname(),
  });
}

export function sendCode(username: string, purpose: SmsPurpose): Promise<{ retryAfter: number }> {
  return post<{ retryAfter: number }>('/sendMessage', {
    username: username.trim(),
    purpose,
    hostname: currentHostname(),
  });
}

export function register(values: Omit<RegisterRequest, 'hostname'>): Promise<LoginResponse> {
  return post<LoginResponse>('/user/register', {
    ...values,
    username: values.username.trim(),
    hostname: currentHostname(),
  });
}

export function resetForgottenPassword(values: ForgetPasswordRequest): Promise<unknown> {
  return post('/user/forgetPassword', { ...values, username: values.username.trim() });
}
