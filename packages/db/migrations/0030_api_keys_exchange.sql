-- Each API key names its exchange (Binance or Bybit); keys bound before the choice existed are Binance keys.
ALTER TABLE "api_keys" ADD COLUMN "exchange" text DEFAULT 'binance' NOT NULL;