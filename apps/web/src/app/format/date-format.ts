/** Date and number formatting for the console, in one place so every screen renders them alike. */

const pad2 = (n: number) => String(n).padStart(2, '0');

/** `22/11/2026 10:15:03`: day/month/year, 24-hour clock, local time, zero padded (alert toasts). */
export function formatDateTime(date: Date): string {
  const day = `${pad2(date.getDate())}/${pad2(date.getMonth() + 1)}/${date.getFullYear()}`;
  const time = `${pad2(date.getHours())}:${pad2(date.getMinutes())}:${pad2(date.getSeconds())}`;
  return `${day} ${time}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `05 Mar 2026 14:07`: 'dd MMM yyyy HH:mm' in local time (SPEC §2 monitor values). */
export function formatDayMonthTime(date: Date): string {
  return `${pad2(date.getDate())} ${MONTHS[date.getMonth()]} ${date.getFullYear()} ${pad2(date.getHours())}:${pad2(date.getMinutes())}`;
}

/** `14:02` today, else `05 Mar 2026 14:07`: when something began, for "since …". */
export function formatSince(date: Date, now = new Date()): string {
  return date.toDateString() === now.toDateString() ? `${pad2(date.getHours())}:${pad2(date.getMinutes())}` : formatDayMonthTime(date);
}

/** `27 March 2023`: long date for prose such as 'Last updated'. */
export function formatLongDate(date: Date): string {
  return date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });
}
