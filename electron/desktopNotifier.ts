import { Notification } from 'electron';
import type { Notify } from './runNotices.js';

/**
 * Shows a notice as an OS notification. The caller keeps the returned notification until it is
 * replaced: one that is garbage collected loses its click handler.
 */
export const notifyDesktop: Notify = (notice, onClick) => {
  if (!Notification.isSupported()) return null;
  const notification = new Notification({ title: notice.title, body: notice.body });
  notification.on('click', onClick);
  notification.show();
  return notification;
};
