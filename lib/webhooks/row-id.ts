/** Path id → row id; anything but a positive int4 names nothing (404, not 400). */
export function parseRowId(text: string): number | null {
  if (!/^\d{1,10}$/.test(text)) return null;
  const id = Number(text);
  return id >= 1 && id <= 2_147_483_647 ? id : null;
}
