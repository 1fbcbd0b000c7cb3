/**
 * The ten recovery codes, shown once (only their hashes are kept): copy, download, and a
 * checkbox the person ticks to say they kept them before leaving the step.
 */

import { useState } from 'react';
import { Checkbox } from 'react-aria-components';
import { twoFactorText as tt } from '../../i18n/two-factor';
import { Button } from '../../ui/Button';
import { toast } from '../../ui/feedback/toasts';
import { saveFile } from '../../ui/save-file';
import '../../ui/CheckList.css';
import './TwoFactor.css';

export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [kept, setKept] = useState(false);
  const text = `${codes.join('\n')}\n`;

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      toast.success(tt.copied);
    } catch {
      // No clipboard (an insecure page, a refused permission): the codes stay on screen.
    }
  }

  function download() {
    saveFile(new Blob([text], { type: 'text/plain' }), tt.fileName);
  }

  return (
    <section className="two-factor-codes" aria-labelledby="recovery-codes-title">
      <h3 id="recovery-codes-title">{tt.recoveryTitle}</h3>
      <p className="muted">{tt.recoveryIntro}</p>
      <ol className="recovery-code-list">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="two-factor-actions">
        <Button variant="secondary" onPress={() => void copy()}>
          {tt.copy}
        </Button>
        <Button variant="secondary" onPress={download}>
          {tt.download}
        </Button>
      </div>
      <Checkbox className="checkbox" isSelected={kept} onChange={setKept}>
        <span className="checkbox-box" aria-hidden="true" />
        {tt.saved}
      </Checkbox>
      <div>
        <Button isDisabled={!kept} onPress={onDone}>
          {tt.done}
        </Button>
      </div>
    </section>
  );
}
