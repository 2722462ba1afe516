/**
 * Escapes text for HTML content and double-quoted attributes: test titles and error lines come from specs and
 * servers, and must never become markup in the trend page.
 * @param text any text
 */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
