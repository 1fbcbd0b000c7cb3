/**
 * Hands a file made in the page (a report, a spreadsheet, recovery codes) to the browser's
 * downloads. The object URL lives a minute: revoked at once, some browsers cancel the download.
 */
export function saveFile(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
