/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** 'true' (default) shows subscription, deposit, withdraw and referral screens (spec 01 §2). */
  readonly VITE_SUBSCRIPTION_ENABLED?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
