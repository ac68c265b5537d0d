/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The uft subcommands, one file each (cmd_NAME.c; stop and restart share
 * cmd_stop.c). Each returns the process exit status. */
#ifndef UFT_COMMANDS_H
#define UFT_COMMANDS_H

int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_stream(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_ctl(int argc, char **argv);
int cmd_mount(int argc, char **argv);
/* A command in a mount namespace where the tree is at /sys/kernel/tracing. */
int cmd_ns(int argc, char **argv);
/* SQL to hist triggers and synthetic events. */
int cmd_sqlhist(int argc, char **argv);
/* The live commands, on a running process's tree. */
int cmd_start(int argc, char **argv);
int cmd_stop(int argc, char **argv);
int cmd_restart(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_reset(int argc, char **argv);
int cmd_extract(int argc, char **argv);
int cmd_stat(int argc, char **argv);
/* A live view of running traced processes. */
int cmd_top(int argc, char **argv);
/* Loading libuft into a running process started without it. */
int cmd_attach(int argc, char **argv);
/* The latency measurements, rtla's top and hist. */
int cmd_timerlat(int argc, char **argv);
int cmd_osnoise(int argc, char **argv);

#endif
