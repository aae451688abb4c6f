-- OKX keys carry a passphrase, sealed like the secret; Binance and Bybit keys have none.
ALTER TABLE "api_keys" ADD COLUMN "passphrase_sealed" text;