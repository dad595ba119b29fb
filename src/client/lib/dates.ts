import { format } from 'date-fns';

/** Dates show in the viewer's time zone as MMM dd, yyyy and hh:mm a (spec section 2). */
export const formatDate = (value: string | Date) => format(new Date(value), 'MMM dd, yyyy');
export const formatTime = (value: string | Date) => format(new Date(value), 'hh:mm a');
export const formatDateTime = (value: string | Date) => `${formatDate(value)} ${formatTime(value)}`;
