-- Candle cache for backtests in Binance mode: candles fetched once, and the periods already fetched.
CREATE TABLE "candle_cache" (
	"category" text NOT NULL,
	"symbol" text NOT NULL,
	"interval" text NOT NULL,
	"open_time_ms" bigint NOT NULL,
	"open" double precision NOT NULL,
	"high" double precision NOT NULL,
	"low" double precision NOT NULL,
	"close" double precision NOT NULL,
	CONSTRAINT "candle_cache_category_symbol_interval_open_time_ms_pk" PRIMARY KEY("category","symbol","interval","open_time_ms")
);
--> statement-breakpoint
CREATE TABLE "candle_cache_spans" (
	"category" text NOT NULL,
	"symbol" text NOT NULL,
	"interval" text NOT NULL,
	"from_ms" bigint NOT NULL,
	"to_ms" bigint NOT NULL,
	CONSTRAINT "candle_cache_spans_category_symbol_interval_from_ms_pk" PRIMARY KEY("category","symbol","interval","from_ms")
);
