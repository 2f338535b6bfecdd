// Hands the mounted antd <App>'s toast and dialog functions to the request layer.
import { useEffect } from 'react';
import { App as AntApp } from 'antd';
import { setFeedback } from '../api/feedback.ts';

export function FeedbackBridge() {
  const { message, modal } = AntApp.useApp();
  useEffect(() => {
    setFeedback({ message, modal });
    return () => setFeedback(null);
  }, [message, modal]);
  return null;
}
