/** Copying a text to the clipboard, said in a toast either way. */
import { toast } from './toasts';

/**
 * Copies `text`; `copied` in a success toast, or `failed` in an error toast when the browser
 * refuses (no clipboard permission, a page not served over HTTPS).
 */
export async function copyText(text: string, copied: string, failed: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(copied);
    return true;
  } catch {
    toast.error(failed);
    return false;
  }
}
