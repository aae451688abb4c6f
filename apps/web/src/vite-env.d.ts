/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** 'true' (default) shows subscription, deposit, withdraw and referral screens (docs/spec/01-core-screens.md §2). */
  readonly VITE_SUBSCRIPTION_ENABLED?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
