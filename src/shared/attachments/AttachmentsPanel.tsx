/**
 * The 'Anexos' panel of a service record's or a document's form: its photos and PDFs (open,
 * download, remove with confirmation) and the button that attaches more. Shared by the
 * maintenance and documents screens. Files go one per call, so the panel can say which one
 * is on its way and a refused file does not take the others down with it. A record not yet
 * saved has no id to attach to: the panel says files come after saving.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { FileTrigger, Link } from 'react-aria-components';
import {
  attachmentBlob,
  deleteAttachment,
  listAttachments,
  uploadAttachment,
} from '../../api/attachments';
import { keys } from '../../api/keys';
import {
  ATTACHMENT_TYPES,
  type Attachment,
  type AttachmentOwner,
  MAX_ATTACHMENTS_PER_RECORD,
} from '../../contract/attachments';
import { requireOnline, toastError, useErrorToast } from '../../hooks/feedback';
import { useCan } from '../../hooks/useCan';
import { useInvalidate } from '../../hooks/useInvalidate';
import { attachmentsText as text } from '../../i18n/attachments';
import { localDate } from '../../lib/local-time';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { toast } from '../../ui/feedback/toasts';
import { Progress } from '../../ui/Progress';
import { saveFile } from '../../ui/save-file';
import '../../ui/page.css';
import '../../ui/text.css';
import './AttachmentsPanel.css';

/** Opens the file in a new tab (a PDF in the browser's viewer), or saves it if none opens. */
async function openAttachment(file: Attachment) {
  // The tab is opened at the press, before the bytes arrive: opened later, it is a pop-up.
  const tab = window.open('', '_blank');
  try {
    const blob = await attachmentBlob(file.url);
    if (!tab || blob.type === 'application/octet-stream') {
      tab?.close();
      saveFile(blob, file.name);
      return;
    }
    const url = URL.createObjectURL(blob);
    tab.location.href = url;
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch (err) {
    tab?.close();
    await toastError(text.openError, err);
  }
}

async function downloadAttachment(file: Attachment) {
  try {
    saveFile(await attachmentBlob(file.url), file.name);
  } catch (err) {
    await toastError(text.openError, err);
  }
}

export function AttachmentsPanel({
  owner,
  id,
}: {
  owner: AttachmentOwner;
  /** The saved record's id; none while the record is being created. */
  id: string | undefined;
}) {
  const headingId = useId();
  return (
    <section className="panel attachments" aria-labelledby={headingId}>
      <h2 id={headingId}>{text.title}</h2>
      {id ? <AttachmentList owner={owner} id={id} /> : <p className="muted">{text.afterSaving}</p>}
    </section>
  );
}

function AttachmentList({ owner, id }: { owner: AttachmentOwner; id: string }) {
  const canWrite = useCan('create_resources');
  const invalidate = useInvalidate();
  const key = keys.attachments(owner, id);
  const files = useQuery({ queryKey: key, queryFn: () => listAttachments(owner, id) });
  useErrorToast(files.error, text.loadError);
  const [sending, setSending] = useState<{ name: string; n: number; total: number }>();
  const [removing, setRemoving] = useState<Attachment>();
  const [pendingRemoval, setPendingRemoval] = useState(false);
  const items = files.data ?? [];
  const full = items.length >= MAX_ATTACHMENTS_PER_RECORD;

  async function upload(list: FileList | null) {
    if (!list?.length || !requireOnline()) return;
    const chosen = [...list];
    try {
      for (const [i, file] of chosen.entries()) {
        setSending({ name: file.name, n: i + 1, total: chosen.length });
        try {
          toast.success((await uploadAttachment(owner, id, file)).message);
        } catch (err) {
          await toastError(text.sendError(file.name), err);
        }
        await invalidate(key);
      }
    } finally {
      setSending(undefined);
    }
  }

  async function remove() {
    if (!removing || !requireOnline()) return;
    setPendingRemoval(true);
    try {
      toast.success(await deleteAttachment(removing.url));
    } catch (err) {
      await toastError(text.removeError, err);
    } finally {
      setPendingRemoval(false);
      setRemoving(undefined);
      await invalidate(key);
    }
  }

  return (
    <>
      <p className="muted">{text.hint}</p>
      {files.isPending ? (
        <p className="muted">{text.loading}</p>
      ) : items.length === 0 ? (
        <p className="muted">{text.none}</p>
      ) : (
        <ul className="attachment-list" aria-label={text.list}>
          {items.map((file) => (
            <li key={file.id} className="attachment">
              <span className="attachment-kind" aria-hidden="true">
                {file.contentType === 'application/pdf' ? text.badges.pdf : text.badges.image}
              </span>
              <div className="attachment-text">
                <Link
                  className="attachment-name"
                  aria-label={text.open(file.name)}
                  onPress={() => void openAttachment(file)}
                >
                  {file.name}
                </Link>
                <span className="muted attachment-meta">
                  {[
                    text.kinds[file.contentType],
                    text.size(file.size),
                    localDate(file.createdAt),
                    file.createdBy ? text.by(file.createdBy) : null,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </span>
              </div>
              <div className="attachment-actions">
                <Button
                  variant="ghost"
                  aria-label={text.downloadOf(file.name)}
                  onPress={() => void downloadAttachment(file)}
                >
                  {text.download}
                </Button>
                {canWrite && (
                  <Button
                    variant="ghost"
                    aria-label={text.removeOf(file.name)}
                    onPress={() => setRemoving(file)}
                  >
                    {text.remove}
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {sending && <Progress label={text.sending(sending.name, sending.n, sending.total)} />}
      {canWrite &&
        (full ? (
          <p className="muted">{text.full}</p>
        ) : (
          <FileTrigger
            acceptedFileTypes={[...ATTACHMENT_TYPES]}
            allowsMultiple
            onSelect={(list) => void upload(list)}
          >
            <Button variant="secondary" isPending={Boolean(sending)} className="attachment-add">
              {text.add}
            </Button>
          </FileTrigger>
        ))}
      <ConfirmDialog
        title={text.removeTitle}
        confirmLabel={text.remove}
        isOpen={Boolean(removing)}
        danger
        pending={pendingRemoval}
        onCancel={() => setRemoving(undefined)}
        onConfirm={() => void remove()}
      >
        <p>{removing ? text.removeBody(removing.name) : ''}</p>
      </ConfirmDialog>
    </>
  );
}
