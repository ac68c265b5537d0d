/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A field table with one field of every integer kind, a fixed char array, a
 * dynamic string, a dynamic byte array and a pointer: the record shape the
 * print-fmt tests and fuzz target render. */
#ifndef UFT_TEST_FIELD_KINDS_H
#define UFT_TEST_FIELD_KINDS_H

#include <uft/event.h>

static const struct uft_field field_kinds[] = {
    {"signed char", "c8", 8, 1, 1, UFT_FIELD_SCALAR, 1},
    {"unsigned char", "b", 9, 1, 0, UFT_FIELD_SCALAR, 1},
    {"short", "s16", 10, 2, 1, UFT_FIELD_SCALAR, 2},
    {"unsigned short", "u16", 12, 2, 0, UFT_FIELD_SCALAR, 2},
    {"bool", "flag", 14, 1, 0, UFT_FIELD_SCALAR, 1},
    {"int", "i32", 16, 4, 1, UFT_FIELD_SCALAR, 4},
    {"unsigned int", "u32", 20, 4, 0, UFT_FIELD_SCALAR, 4},
    {"long", "l64", 24, 8, 1, UFT_FIELD_SCALAR, 8},
    {"unsigned long", "u64", 32, 8, 0, UFT_FIELD_SCALAR, 8},
    {"char", "name[8]", 40, 8, 1, UFT_FIELD_ARRAY, 1},
    {"__data_loc char[]", "str", 48, 4, 0, UFT_FIELD_DYN, 1},
    {"__data_loc unsigned char[]", "arr", 52, 4, 0, UFT_FIELD_DYN, 1},
    {"void *", "ptr", 56, 8, 0, UFT_FIELD_SCALAR, 8},
};

#endif
