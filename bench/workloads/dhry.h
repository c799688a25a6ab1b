/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * Dhrystone 2.1 (Reinhold P. Weicker, 1988), the published benchmark
 * definition, written for ubtune. As UnixBench builds "dhry2reg", the
 * benchmark is split over two translation units (the main loop with
 * procedures 1-5, and procedures 6-8 with functions 1-3), so the compiler
 * sees what it saw there and cannot inline across them, and the variables
 * the definition marks as register variables are declared register.
 */

enum dhry_ident { DHRY_IDENT_1, DHRY_IDENT_2, DHRY_IDENT_3, DHRY_IDENT_4, DHRY_IDENT_5 };

typedef char dhry_str30[31];
typedef int dhry_arr1[50];
typedef int dhry_arr2[50][50];

struct dhry_record {
	struct dhry_record *ptr_comp;
	enum dhry_ident discr;
	union {
		struct {
			enum dhry_ident enum_comp;
			int int_comp;
			char str_comp[31];
		} var_1;
		struct {
			enum dhry_ident e_comp_2;
			char str_2_comp[31];
		} var_2;
		struct {
			char ch_1_comp;
			char ch_2_comp;
		} var_3;
	} variant;
};

/* Globals of the definition, in dhry.c. */
extern int dhry_int_glob;
extern char dhry_ch_1_glob;

/* The second translation unit, dhry-procs.c. Func_1 is declared by each
 * unit itself: the first calls it without a prototype, as the definition's
 * source does. */
void dhry_proc_6(enum dhry_ident enum_val, enum dhry_ident *enum_ref);
void dhry_proc_7(int int_1_val, int int_2_val, int *int_ref);
void dhry_proc_8(dhry_arr1 arr_1_ref, dhry_arr2 arr_2_ref, int int_1_val, int int_2_val);
int dhry_func_2(dhry_str30 str_1_ref, dhry_str30 str_2_ref);
int dhry_func_3(enum dhry_ident enum_val);

/* The first translation unit's procedures, external as in the definition. */
void dhry_proc_1(struct dhry_record *ptr_val);
void dhry_proc_2(int *int_ref);
void dhry_proc_3(struct dhry_record **ptr_ref);
void dhry_proc_4(void);
void dhry_proc_5(void);
