/**
 * 'Como configurar o aparelho': beside the tracker form, what the installer types into the
 * device or the phone app for the protocol chosen (server, port, identifier, password), with a
 * QR code that configures Traccar Client at once. The password is shown while it is known here
 * (typed or generated before saving); afterwards the server keeps only its hash.
 */
import { useQuery } from '@tanstack/react-query';
import { deviceSettings } from '../../api/devices';
import { keys } from '../../api/keys';
import { LOOKUP_QUERY } from '../../api/query';
import { trackerTypesApi } from '../../api/resources';
import {
  type DeviceProtocol,
  type DeviceSettings,
  type ImeiProtocol,
  isDeviceProtocol,
  isImeiProtocol,
} from '../../contract';
import { DEVICE_SETUP } from '../../i18n/device-setup';
import {
  type DeviceEndpoint,
  nativeSms,
  osmandServerUrl,
  traccarClientLink,
  wialonLogin,
} from '../../lib/device-setup';
import { Button } from '../../ui/Button';
import { copyText } from '../../ui/feedback/copy';
import { QrCode } from '../../ui/QrCode';
import '../../ui/page.css';
import '../../ui/text.css';
import './DeviceSetup.css';

const text = DEVICE_SETUP;

/** One fact to type into the device, with a button that copies it (an address is long). */
function Row({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>
        <code>{value}</code>
        <Button
          variant="ghost"
          className="device-copy"
          aria-label={`${text.copy}: ${label}`}
          onPress={() => void copyText(value, text.copied, text.copyFailed, 'warning')}
        >
          {text.copy}
        </Button>
      </dd>
    </>
  );
}

function OsmandSetup({ endpoint }: { endpoint: DeviceEndpoint }) {
  const url = osmandServerUrl(endpoint);
  const link = endpoint.password ? traccarClientLink(endpoint) : null;
  if (!url) return <p className="muted">{text.off}</p>;
  return (
    <>
      <p className="muted">{text.osmandHelp}</p>
      <dl className="device-facts">
        <Row label={text.osmandUrl} value={url} />
        <Row label={text.identifier} value={endpoint.identifier || '—'} />
      </dl>
      {link ? (
        <figure className="device-qr-figure">
          <QrCode className="device-qr" value={link} label={text.qr} />
          <figcaption className="muted">{text.qrHelp}</figcaption>
        </figure>
      ) : (
        <p className="muted">{text.qrUnavailable}</p>
      )}
    </>
  );
}

function WialonSetup({ endpoint }: { endpoint: DeviceEndpoint }) {
  if (endpoint.port === null) return <p className="muted">{text.off}</p>;
  return (
    <>
      <p className="muted">{text.wialonHelp}</p>
      <dl className="device-facts">
        <Row label={text.server} value={endpoint.host} />
        <Row label={text.portTcp} value={String(endpoint.port)} />
        <Row label={text.identifier} value={endpoint.identifier || '—'} />
        <Row label={text.wialonLogin} value={wialonLogin(endpoint, text.password.toUpperCase())} />
      </dl>
      <p className="muted">{text.wialonUdp}</p>
    </>
  );
}

/** A makers' device (GT06, Suntech, Teltonika, Queclink): server, port, IMEI, its SMS. */
function NativeSetup({
  protocol,
  settings,
  identifier,
  commandPassword,
}: {
  protocol: ImeiProtocol;
  settings: DeviceSettings;
  identifier: string;
  /** The Queclink command password typed (blank: the factory one). */
  commandPassword: string;
}) {
  const port = settings.ports[protocol];
  if (port === null) return <p className="muted">{text.off}</p>;
  const sms = nativeSms(protocol, settings.host, port, commandPassword || undefined);
  return (
    <>
      <p className="muted">{text.native[protocol]}</p>
      <dl className="device-facts">
        <Row label={text.server} value={settings.host} />
        <Row label={protocol === 'gt06' ? text.portTcp : text.portTcpUdp} value={String(port)} />
        <Row label={text.imei} value={identifier || '—'} />
        {sms && <Row label={text.sms} value={sms} />}
      </dl>
      <p className="muted">{text.noPassword}</p>
    </>
  );
}

function FlespiSetup({ settings, identifier }: { settings: DeviceSettings; identifier: string }) {
  if (!settings.flespiStreamUrl) return <p className="muted">{text.flespiOff}</p>;
  return (
    <>
      <p className="muted">{text.flespiHelp}</p>
      <dl className="device-facts">
        <Row label={text.flespiUrl} value={settings.flespiStreamUrl} />
        <Row label={text.identifier} value={identifier || '—'} />
      </dl>
    </>
  );
}

/** The tracker types' list, as the form's own options read it (one cached query). */
const TYPE_PARAMS = { limit: 1000 };

export function DeviceSetup({
  protocol,
  trackerTypeId,
  identifier,
  password,
  passwordSet,
  commandPassword,
}: {
  /** The protocol chosen ('' or absent: the tracker type's). */
  protocol: string | null | undefined;
  trackerTypeId: string;
  identifier: string;
  /** The password typed or generated (known here only until saved). */
  password: string;
  passwordSet: boolean;
  /** A Queclink's command password as typed, for its AT+GTSRI. */
  commandPassword?: string;
}) {
  const settings = useQuery({
    queryKey: keys.deviceSettings,
    queryFn: deviceSettings,
    staleTime: 10 * 60_000,
    ...LOOKUP_QUERY,
  });
  const types = useQuery({
    queryKey: keys.resourceList(trackerTypesApi.path, TYPE_PARAMS),
    queryFn: () => trackerTypesApi.list(TYPE_PARAMS),
    staleTime: 5 * 60_000,
    enabled: !isDeviceProtocol(protocol) && Boolean(trackerTypeId),
    ...LOOKUP_QUERY,
  });
  const typed = types.data?.trackerTypes.find((x) => x.id === trackerTypeId)?.protocol;
  const resolved = isDeviceProtocol(protocol) ? protocol : typed;
  if (!isDeviceProtocol(resolved)) return null;
  const chosen: DeviceProtocol = resolved;
  return (
    <section className="panel device-setup" aria-labelledby="device-setup">
      <h2 id="device-setup">{text.title}</h2>
      {settings.data ? (
        <>
          <p>{text.intro}</p>
          {chosen === 'flespi' ? (
            <FlespiSetup settings={settings.data} identifier={identifier} />
          ) : isImeiProtocol(chosen) ? (
            <NativeSetup
              protocol={chosen}
              settings={settings.data}
              identifier={identifier}
              commandPassword={commandPassword ?? ''}
            />
          ) : (
            <>
              {chosen === 'osmand' ? (
                <OsmandSetup endpoint={endpointOf(settings.data, chosen, identifier, password)} />
              ) : (
                <WialonSetup
                  endpoint={endpointOf(settings.data, 'wialon_ips', identifier, password)}
                />
              )}
              <dl className="device-facts">
                {password ? (
                  <Row label={text.password} value={password} />
                ) : (
                  <>
                    <dt>{text.password}</dt>
                    <dd>{passwordSet ? text.passwordUnknown : text.passwordNone}</dd>
                  </>
                )}
              </dl>
            </>
          )}
        </>
      ) : (
        <p className="muted" role="status">
          {settings.isError ? text.failed : text.loading}
        </p>
      )}
    </section>
  );
}

function endpointOf(
  settings: DeviceSettings,
  protocol: 'osmand' | 'wialon_ips',
  identifier: string,
  password: string,
): DeviceEndpoint {
  return {
    host: settings.host,
    port: settings.ports[protocol],
    identifier,
    password: password || null,
  };
}
