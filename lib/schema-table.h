/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "lib/schema.h"

/*
 * Short forms for files of schema tables only (never include it in a
 * header): an OPTIONAL field of struct T, the struct whose table is being
 * written, defined and undefined around each table:
 *
 *	#define T struct env_node
 *	static const struct schema node_schema = SCHEMA(T, I(id), I(mem_kib), S(cpus));
 *	#undef T
 */
#define S(m) FIELD_STR(T, m, OPTIONAL)
#define I(m) FIELD_INT(T, m, OPTIONAL)
#define N(m) FIELD_NUM(T, m, OPTIONAL)
#define B(m) FIELD_BOOL(T, m, OPTIONAL)
#define J(m) FIELD_JSON(T, m, OPTIONAL)
#define O(m, sub) FIELD_OBJ(T, m, OPTIONAL, sub)
#define L(m, sub) FIELD_OBJ_ARRAY(T, m, OPTIONAL, sub)
