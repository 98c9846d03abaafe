import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const base = { DATA_DIR: '/tmp/yado-config-test', JWT_SECRET: 'x'.repeat(32) };

describe('the logo store setting', () => {
  it('keeps logos under the data directory unless a bucket is named', () => {
    expect(loadConfig(base).logoStore).toEqual({ kind: 'file' });
  });

  it('uses path-style addressing for a named endpoint (MinIO and the like), virtual-hosted for AWS', () => {
    const keys = { S3_BUCKET: 'logos', S3_ACCESS_KEY_ID: 'AK', S3_SECRET_ACCESS_KEY: 'very-secret-value' };
    expect(loadConfig({ ...base, ...keys, S3_ENDPOINT: 'http://minio:9000/' }).logoStore).toMatchObject({
      kind: 's3',
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      pathStyle: true,
      publicUrl: null,
    });
    expect(
      loadConfig({ ...base, ...keys, S3_REGION: 'ap-northeast-1', S3_PUBLIC_URL: 'https://cdn.example.jp/' }).logoStore,
    ).toMatchObject({
      endpoint: 'https://s3.ap-northeast-1.amazonaws.com',
      pathStyle: false,
      publicUrl: 'https://cdn.example.jp',
    });
    expect(
      loadConfig({ ...base, ...keys, S3_ENDPOINT: 'http://minio:9000', S3_PATH_STYLE: 'false' }).logoStore,
    ).toMatchObject({ pathStyle: false });
  });

  it('refuses a bucket without both keys, naming the settings but never showing the secret', () => {
    expect(() => loadConfig({ ...base, S3_BUCKET: 'logos', S3_SECRET_ACCESS_KEY: 'very-secret-value' })).toThrow(
      ConfigError,
    );
    try {
      loadConfig({ ...base, S3_BUCKET: 'logos', S3_SECRET_ACCESS_KEY: 'very-secret-value', S3_ENDPOINT: 'not a url' });
    } catch (error) {
      expect((error as Error).message).toContain('S3_ENDPOINT');
      expect((error as Error).message).not.toContain('very-secret-value');
      return;
    }
    throw new Error('an invalid endpoint was accepted');
  });
});

describe('the DNS settings of domain verification', () => {
  it('runs the embedded DNS server in embedded mode and asks it unless DNS_SERVERS names resolvers', () => {
    const embedded = loadConfig(base);
    expect(embedded.dns).toMatchObject({ servers: null, embeddedServer: true, embeddedPort: 0 });
    expect(embedded.sending.verifyCountdownSeconds).toBe(120);
    expect(loadConfig({ ...base, DNS_SERVERS: ' 1.1.1.1, 8.8.8.8:53 ,' }).dns.servers).toEqual([
      '1.1.1.1',
      '8.8.8.8:53',
    ]);
    expect(loadConfig({ ...base, DOMAIN_VERIFY_COUNTDOWN_SECONDS: '5' }).sending.verifyCountdownSeconds).toBe(5);
  });

  it('has no embedded DNS server with a real relay, and refuses a countdown that is not a number of seconds', () => {
    expect(loadConfig({ ...base, SMTP_URL: 'smtp://relay:587' }).dns.embeddedServer).toBe(false);
    expect(() => loadConfig({ ...base, DOMAIN_VERIFY_COUNTDOWN_SECONDS: 'two minutes' })).toThrow(ConfigError);
  });
});

describe('job leases', () => {
  it("last 10 s renewed every 2 s by default (a killed worker's send is taken up within 15 s), and are renewed at least twice per lease", () => {
    expect(loadConfig(base).jobs).toEqual({ leaseSeconds: 10, leaseRenewSeconds: 2 });
    expect(loadConfig({ ...base, WORKER_LEASE_SECONDS: '3', WORKER_LEASE_RENEW_SECONDS: '1' }).jobs).toEqual({
      leaseSeconds: 3,
      leaseRenewSeconds: 1,
    });
    expect(
      loadConfig({ ...base, WORKER_LEASE_SECONDS: '8', WORKER_LEASE_RENEW_SECONDS: '30' }).jobs.leaseRenewSeconds,
    ).toBe(4);
    expect(() => loadConfig({ ...base, WORKER_LEASE_SECONDS: '1' })).toThrow(ConfigError);
  });
});

describe('feature flags', () => {
  it("are the environment's, less those FEATURES_OFF names, and refuse an unknown name", () => {
    expect(loadConfig({ ...base, YADO_ENV: 'production' }).features).toMatchObject({
      dynamic_segmentation: true,
      flex_builder: false,
    });
    const off = loadConfig({ ...base, YADO_ENV: 'dev', FEATURES_OFF: 'dynamic_segmentation, automation' }).features;
    expect(off).toMatchObject({
      dynamic_segmentation: false,
      automation: false,
      flex_builder: true,
      booking_history: true,
    });
    expect(() => loadConfig({ ...base, FEATURES_OFF: 'dynamic_segmentaton' })).toThrow(ConfigError);
  });
});

describe('the proxies whose X-Forwarded-For is believed', () => {
  it('are none by default, so the socket address counts', () => {
    expect(loadConfig(base).trustProxy).toEqual([]);
  });

  it('are addresses and CIDR ranges, comma-separated, and a wrong entry is refused by name', () => {
    const config = loadConfig({ ...base, TRUST_PROXY: '10.0.0.5, 10.1.0.0/16,::1,fd00::/8,loopback' });
    expect(config.trustProxy).toEqual(['10.0.0.5', '10.1.0.0/16', '::1', 'fd00::/8', 'loopback']);
    for (const wrong of ['10.0.0.300', '10.0.0.0/33', 'proxy.internal', '10.0.0.0/8/1', '*'])
      expect(() => loadConfig({ ...base, TRUST_PROXY: wrong })).toThrow(/TRUST_PROXY/);
  });
});

describe('the operations listener', () => {
  it('is on loopback at a free port by default', () => {
    expect(loadConfig(base).metrics).toEqual({ host: '127.0.0.1', port: 0 });
    expect(loadConfig({ ...base, METRICS_HOST: '0.0.0.0', METRICS_PORT: '9464' }).metrics).toEqual({
      host: '0.0.0.0',
      port: 9464,
    });
  });
});
