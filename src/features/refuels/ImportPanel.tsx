/**
 * The import of a fuel card's CSV: pick the file, see it read and sent, then how many refuels
 * came in and each refused line with its number and reason.
 */
import { useState } from 'react';
import { FileTrigger } from 'react-aria-components';
import { importRefuels } from '../../api/refuels';
import type { RefuelImportResult } from '../../contract';
import { useErrorToast } from '../../hooks/feedback';
import { refuelsText } from '../../i18n/refuels';
import { Button } from '../../ui/Button';
import { Progress } from '../../ui/Progress';

const text = refuelsText;
const MAX_BYTES = 512 * 1024;

export function ImportPanel({ clientId, onDone }: { clientId: string | null; onDone: () => void }) {
  const [stage, setStage] = useState<'idle' | 'reading' | 'sending'>('idle');
  const [result, setResult] = useState<RefuelImportResult | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  useErrorToast(error, text.importError);

  async function pick(files: FileList | null) {
    const file = files?.[0];
    if (!file || !clientId) return;
    setResult(null);
    setProblem(null);
    setError(null);
    if (file.size > MAX_BYTES) {
      setProblem(text.tooBig);
      return;
    }
    try {
      setStage('reading');
      const content = await file.text();
      setStage('sending');
      setResult(await importRefuels(clientId, content));
      onDone();
    } catch (err) {
      setError(err);
    } finally {
      setStage('idle');
    }
  }

  return (
    <section className="panel refuel-import" aria-labelledby="import-title">
      <h2 id="import-title">{text.importTitle}</h2>
      <p className="muted">{text.importHint}</p>
      {clientId ? (
        <FileTrigger acceptedFileTypes={['text/csv', '.csv', 'text/plain']} onSelect={pick}>
          <Button variant="secondary" isPending={stage !== 'idle'}>
            {text.chooseFile}
          </Button>
        </FileTrigger>
      ) : (
        <p>{text.selectCustomer}</p>
      )}
      {stage !== 'idle' && (
        <Progress
          label={stage === 'reading' ? text.reading : text.sending}
          value={stage === 'reading' ? 25 : undefined}
        />
      )}
      {problem && (
        <p className="refuel-import-problem" role="alert">
          {problem}
        </p>
      )}
      {result && (
        <div role="status" className="refuel-import-result">
          <p>
            <strong>{text.imported(result.imported)}</strong>
          </p>
          {result.errors.length > 0 && (
            <>
              <p>{text.refused(result.errors.length)}</p>
              <ul className="refuel-import-errors">
                {result.errors.map((e) => (
                  <li key={e.line}>
                    <span className="badge badge-danger">{text.line(e.line)}</span> {e.message}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </section>
  );
}
