/** Asks before something that cannot be undone; the dialog traps focus and names itself. */
import type { ReactNode } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Button } from './Button';
import './ConfirmDialog.css';
import { t } from '../i18n/pt-BR';

export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  isOpen,
  onCancel,
  onConfirm,
  danger,
  pending,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  isOpen: boolean;
  onCancel: () => void;
  onConfirm: () => void;
  danger?: boolean;
  pending?: boolean;
}) {
  return (
    <ModalOverlay
      className="modal-overlay"
      isOpen={isOpen}
      onOpenChange={(open) => !open && onCancel()}
      isDismissable
    >
      <Modal className="modal">
        <Dialog role="alertdialog" className="dialog">
          <Heading slot="title">{title}</Heading>
          <div className="dialog-body">{children}</div>
          <div className="dialog-actions">
            <Button variant="ghost" onPress={onCancel}>
              {t.screens.confirmDialog.cancelar}
            </Button>
            <Button variant={danger ? 'danger' : 'primary'} onPress={onConfirm} isPending={pending}>
              {confirmLabel}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
