// The toast and dialog functions of the mounted antd <App>, so code outside React (the request layer) shows
// them with the current theme and locale.
import { message as staticMessage, Modal as StaticModal, type App } from 'antd';

type Feedback = Pick<ReturnType<typeof App.useApp>, 'message' | 'modal'>;

let current: Feedback | null = null;

export function setFeedback(feedback: Feedback | null): void {
  current = feedback;
}

export function feedback(): Feedback {
  return current ?? { message: staticMessage, modal: StaticModal as unknown as Feedback['modal'] };
}

/** Toast durations of spec 9, in seconds (antd's unit). */
export const TOAST_SECONDS = { serverError: 3, network: 5, long: 10 } as const;
