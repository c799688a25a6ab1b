/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Dhrystone 2.1, second translation unit: procedures 6-8, functions 1-3. */
#include <string.h>

#include "dhry.h"

void dhry_proc_6(enum dhry_ident enum_val, enum dhry_ident *enum_ref)
{
	*enum_ref = enum_val;
	if (!dhry_func_3(enum_val))
		*enum_ref = DHRY_IDENT_4;
	switch (enum_val) {
	case DHRY_IDENT_1:
		*enum_ref = DHRY_IDENT_1;
		break;
	case DHRY_IDENT_2:
		if (dhry_int_glob > 100)
			*enum_ref = DHRY_IDENT_1;
		else
			*enum_ref = DHRY_IDENT_4;
		break;
	case DHRY_IDENT_3: /* the case taken */
		*enum_ref = DHRY_IDENT_2;
		break;
	case DHRY_IDENT_4:
		break;
	case DHRY_IDENT_5:
		*enum_ref = DHRY_IDENT_3;
		break;
	}
}

/* Declared and defined without a prototype, as in the definition's source:
 * dhry.c calls it with its arguments promoted to int, and this definition
 * converts them back to char. */
enum dhry_ident dhry_func_1();

/* Called three times per run: (2, 3) -> 7, (10, 5) -> 17, (6, 10) -> 18. */
void dhry_proc_7(int int_1_val, int int_2_val, int *int_ref)
{
	int int_loc = int_1_val + 2;
	*int_ref = int_2_val + int_loc;
}

/* Called with 3 and 7. */
void dhry_proc_8(dhry_arr1 arr_1_ref, dhry_arr2 arr_2_ref, int int_1_val, int int_2_val)
{
	register int int_index;
	register int int_loc = int_1_val + 5;

	arr_1_ref[int_loc] = int_2_val;
	arr_1_ref[int_loc + 1] = arr_1_ref[int_loc];
	arr_1_ref[int_loc + 30] = int_loc;
	for (int_index = int_loc; int_index <= int_loc + 1; ++int_index)
		arr_2_ref[int_loc][int_index] = int_loc;
	arr_2_ref[int_loc][int_loc - 1] += 1;
	arr_2_ref[int_loc + 20][int_loc] = arr_1_ref[int_loc];
	dhry_int_glob = 5;
}

/* Called three times per run: ('H', 'R'), ('A', 'C'), ('B', 'C'). */
enum dhry_ident dhry_func_1(ch_1_val, ch_2_val)
char ch_1_val;
char ch_2_val;
{
	char ch_1_loc = ch_1_val;
	char ch_2_loc = ch_1_loc;

	/* if-else as in the definition: gcc then lays the branch out as in
	 * UnixBench's build (the usual case falls through to the return) */
	if (ch_2_loc != ch_2_val) {
		return DHRY_IDENT_1;
	} else {
		dhry_ch_1_glob = ch_1_loc;
		return DHRY_IDENT_2;
	}
}

/* Compares "DHRYSTONE PROGRAM, 1'ST STRING" with the 2'ND one: false. */
int dhry_func_2(dhry_str30 str_1_ref, dhry_str30 str_2_ref)
{
	register int int_loc = 2;
	char ch_loc = 'A';

	while (int_loc <= 2) /* once */
		if (dhry_func_1(str_1_ref[int_loc], str_2_ref[int_loc + 1]) == DHRY_IDENT_1) {
			ch_loc = 'A';
			int_loc += 1;
		}
	if (ch_loc >= 'W' && ch_loc < 'Z')
		int_loc = 7;
	if (ch_loc == 'R')
		return 1;
	if (strcmp(str_1_ref, str_2_ref) > 0) {
		int_loc += 7;
		dhry_int_glob = int_loc;
		return 1;
	}
	return 0;
}

int dhry_func_3(enum dhry_ident enum_val)
{
	enum dhry_ident enum_loc = enum_val;
	return enum_loc == DHRY_IDENT_3;
}
