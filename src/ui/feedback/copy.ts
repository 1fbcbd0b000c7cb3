/** Copying a text to the clipboard, said in a toast either way. */
import { toast } from './toasts';

/**
 * Copies `text`; `copied` in a success toast, or `failed` when the browser refuses (no
 * clipboard permission, a page not served over HTTPS): an error toast, or a warning, which
 * stays until closed, where the text to copy by hand is on the screen behind it.
 */
export async function copyText(
  text: string,
  copied: string,
  failed: string,
  kind: 'error' | 'warning' = 'error',
): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(copied);
    return true;
  } catch {
    toast[kind](failed);
    return false;
  }
}
