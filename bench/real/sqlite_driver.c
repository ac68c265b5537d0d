/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A small SQLite workload for bench/real/run.sh: N rows inserted in one
 * transaction through a prepared statement, an index built, then a grouped
 * query and N/10 point lookups. Prints a checksum so that every build and
 * every tracer is seen to run the same work. */
#include <stdio.h>
#include <stdlib.h>

#include "sqlite3.h"

static void die(sqlite3 *db, const char *what)
{
	fprintf(stderr, "sqlite_driver: %s: %s\n", what, sqlite3_errmsg(db));
	exit(1);
}

static void exec(sqlite3 *db, const char *sql)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		die(db, sql);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 20000;
	sqlite3 *db;
	sqlite3_stmt *st;
	if (sqlite3_open(":memory:", &db) != SQLITE_OK)
		die(db, "open");
	exec(db, "CREATE TABLE t(id INTEGER PRIMARY KEY, k INTEGER, name TEXT, v REAL)");
	exec(db, "BEGIN");
	if (sqlite3_prepare_v2(db, "INSERT INTO t(k, name, v) VALUES(?, ?, ?)", -1, &st, NULL))
		die(db, "prepare insert");
	unsigned x = 12345;
	char name[32];
	for (int i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		snprintf(name, sizeof(name), "name-%u", x % 9973);
		sqlite3_bind_int(st, 1, (int)(x >> 16) % 1000);
		sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT);
		sqlite3_bind_double(st, 3, (double)(x % 100000) / 7.0);
		if (sqlite3_step(st) != SQLITE_DONE)
			die(db, "insert");
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	exec(db, "COMMIT");
	exec(db, "CREATE INDEX t_k ON t(k)");

	long long sum = 0;
	if (sqlite3_prepare_v2(db, "SELECT k, count(*), sum(v) FROM t GROUP BY k ORDER BY 2 DESC",
			       -1, &st, NULL))
		die(db, "prepare group");
	while (sqlite3_step(st) == SQLITE_ROW)
		sum += sqlite3_column_int64(st, 1) * sqlite3_column_int(st, 0);
	sqlite3_finalize(st);

	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM t WHERE k = ? AND name LIKE 'name-1%'", -1,
			       &st, NULL))
		die(db, "prepare lookup");
	for (int i = 0; i < n / 10; i++) {
		sqlite3_bind_int(st, 1, i % 1000);
		if (sqlite3_step(st) == SQLITE_ROW)
			sum += sqlite3_column_int64(st, 0);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	printf("sqlite rows %d checksum %lld\n", n, sum);
	return 0;
}
