-- The address a session signed in from: the known-device exemption of the login limit.
ALTER TABLE "sessions" ADD COLUMN "ip" text;