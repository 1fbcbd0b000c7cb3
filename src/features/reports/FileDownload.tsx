/**
 * A report file on its way: 'Gerando o arquivo…' while the server writes it, then the bytes
 * received of the total, with 'Cancelar' (the request is aborted). The hook runs the download,
 * saves the file under its SPEC §9 name and reports failures as SPEC §8 says
 * ('Erro ao buscar arquivo: {status} {statusText}', with the server's reason below).
 */
import { useRef, useState } from 'react';
import { downloadReportFile, FileFetchError, type FileProgress } from '../../api/reports';
import { t } from '../../i18n/pt-BR';
import { Button } from '../../ui/Button';
import { toast } from '../../ui/feedback/toasts';
import { Progress } from '../../ui/Progress';
import { saveFile } from '../../ui/save-file';
import { formatBytes } from './files';
import './FileDownload.css';

export function useFileDownload(onDone?: () => void) {
  const [progress, setProgress] = useState<FileProgress | null>(null);
  const controller = useRef<AbortController | null>(null);

  async function start(path: string, params: Record<string, string>) {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    setProgress({ received: 0, total: 0 });
    try {
      const result = await downloadReportFile(path, params, setProgress, abort.signal);
      if (result.kind === 'queued') toast.success(result.message);
      else {
        saveFile(result.blob, result.name);
        toast.success(t.reportFiles.saved(result.name));
      }
      onDone?.();
    } catch (error) {
      if (abort.signal.aborted) toast.blank(t.reportFiles.cancelled);
      else if (error instanceof FileFetchError) toast.error(error.message, error.reason);
      else toast.error(error instanceof Error ? error.message : String(error));
    } finally {
      if (controller.current === abort) {
        controller.current = null;
        setProgress(null);
      }
    }
  }

  return {
    progress,
    start,
    cancel: () => controller.current?.abort(),
  };
}

export function DownloadProgress({
  progress,
  onCancel,
}: {
  progress: FileProgress;
  onCancel: () => void;
}) {
  const started = progress.received > 0;
  return (
    <div className="file-download" role="status">
      <Progress
        label={started ? t.reportFiles.downloading : t.reportFiles.preparing}
        value={
          started && progress.total > 0 ? (progress.received / progress.total) * 100 : undefined
        }
        valueText={
          started
            ? progress.total > 0
              ? t.reportFiles.progress(formatBytes(progress.received), formatBytes(progress.total))
              : t.reportFiles.received(formatBytes(progress.received))
            : undefined
        }
      />
      <Button variant="secondary" onPress={onCancel}>
        {t.reportFiles.cancel}
      </Button>
    </div>
  );
}
