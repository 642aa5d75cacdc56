-- Run once as PostgreSQL's superuser, on the database server:
--   sudo -u postgres psql -v password="$(openssl rand -hex 24)" -f prepare-postgres.sql
-- (keep that password: it goes in SWITCHBOARD_DATABASE_URL). test/cluster/deployment.test.ts runs this file.
-- The role Switchboard connects as: it logs in and owns nothing else.
CREATE ROLE switchboard LOGIN PASSWORD :'password';
-- Its database, owned by it: the server creates its tables there at start (and the public schema's CREATE, which
-- PostgreSQL 15 takes from other users, is the owner's).
CREATE DATABASE switchboard OWNER switchboard;
REVOKE ALL ON DATABASE switchboard FROM PUBLIC;
