/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>

/*
 * The id ubtune records for a machine: derived from its machine id
 * (/etc/machine-id, 32 hex digits) as systemd derives an application's
 * own id (sd_id128_get_machine_app_specific(): HMAC-SHA256 keyed by the
 * machine id over the application's id, the first half as a v4 UUID), so
 * that results tell machines apart without carrying the machine id itself,
 * which machine-id(5) asks to keep on the machine.
 */
#define MACHINE_ID_LEN 32

/* True when s is a machine id: 32 lowercase hex digits, not all zero. */
bool machine_id_valid(const char *s);
/* ubtune's id of the machine whose machine id is raw (32 hex digits). */
void machine_id_derive(const char *raw, char out[MACHINE_ID_LEN + 1]);
