/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dhry2reg SECONDS: Dhrystone 2.1 with register variables, first
 * translation unit: the main loop and procedures 1-5. One loop = one
 * Dhrystone; COUNT = the loop under way when the timer stops the loops, per
 * second, as UnixBench counts. Afterwards one more loop runs, and every
 * variable the definition gives a final value for is checked against it,
 * including the one that counts the loops.
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dhry.h"
#include "workloads.h"

struct dhry_record *dhry_ptr_glob, *dhry_next_ptr_glob;
int dhry_int_glob;
int dhry_bool_glob;
char dhry_ch_1_glob, dhry_ch_2_glob;
dhry_arr1 dhry_arr_1_glob;
dhry_arr2 dhry_arr_2_glob;
unsigned long dhry_run_index;

/*
 * Declared without a prototype, as in the definition's source ("forward
 * declaration necessary since Enumeration may not simply be int"): its
 * arguments are promoted to int, and on x86-64 each call also clears %al,
 * as in UnixBench's loop. Defined in the old style in dhry-procs.c, with
 * char parameters that the definition converts the promoted ints back to.
 */
enum dhry_ident dhry_func_1();

void dhry_proc_1(register struct dhry_record *ptr_val)
{
	register struct dhry_record *next_record = ptr_val->ptr_comp;

	*ptr_val->ptr_comp = *dhry_ptr_glob;
	ptr_val->variant.var_1.int_comp = 5;
	next_record->variant.var_1.int_comp = ptr_val->variant.var_1.int_comp;
	next_record->ptr_comp = ptr_val->ptr_comp;
	dhry_proc_3(&next_record->ptr_comp);
	if (next_record->discr == DHRY_IDENT_1) { /* taken */
		next_record->variant.var_1.int_comp = 6;
		dhry_proc_6(ptr_val->variant.var_1.enum_comp, &next_record->variant.var_1.enum_comp);
		next_record->ptr_comp = dhry_ptr_glob->ptr_comp;
		dhry_proc_7(next_record->variant.var_1.int_comp, 10,
			    &next_record->variant.var_1.int_comp);
	} else {
		*ptr_val = *ptr_val->ptr_comp;
	}
}

/* *int_ref is 1 on entry and 4 on return. */
void dhry_proc_2(int *int_ref)
{
	int int_loc = *int_ref + 10;
	enum dhry_ident enum_loc = 0;

	do /* once */
		if (dhry_ch_1_glob == 'A') {
			int_loc -= 1;
			*int_ref = int_loc - dhry_int_glob;
			enum_loc = DHRY_IDENT_1;
		}
	while (enum_loc != DHRY_IDENT_1);
}

void dhry_proc_3(struct dhry_record **ptr_ref)
{
	if (dhry_ptr_glob != NULL)
		*ptr_ref = dhry_ptr_glob->ptr_comp;
	dhry_proc_7(10, dhry_int_glob, &dhry_ptr_glob->variant.var_1.int_comp);
}

void dhry_proc_4(void)
{
	int bool_loc = dhry_ch_1_glob == 'A';
	dhry_bool_glob = bool_loc | dhry_bool_glob;
	dhry_ch_2_glob = 'B';
}

void dhry_proc_5(void)
{
	dhry_ch_1_glob = 'A';
	dhry_bool_glob = 0;
}

#define SOME_STRING "DHRYSTONE PROGRAM, SOME STRING"
#define STRING_1 "DHRYSTONE PROGRAM, 1'ST STRING"
#define STRING_2 "DHRYSTONE PROGRAM, 2'ND STRING"

struct dhry_locals {
	int int_1, int_2, int_3;
	enum dhry_ident enum_loc;
	const char *str_1, *str_2;
};

static void expect_int(const char *what, long got, long want)
{
	if (got != want)
		wl_fail("wrong result: %s is %ld, the definition gives %ld", what, got, want);
}

static void expect_str(const char *what, const char *got, const char *want)
{
	if (strcmp(got, want) != 0)
		wl_fail("wrong result: %s is \"%.31s\", the definition gives \"%s\"", what, got, want);
}

static void expect_record(const char *what, const struct dhry_record *rec, int enum_comp, int int_comp)
{
	char name[64];
	snprintf(name, sizeof(name), "%s discriminant", what);
	expect_int(name, rec->discr, DHRY_IDENT_1);
	snprintf(name, sizeof(name), "%s enum component", what);
	expect_int(name, rec->variant.var_1.enum_comp, enum_comp);
	snprintf(name, sizeof(name), "%s int component", what);
	expect_int(name, rec->variant.var_1.int_comp, int_comp);
	snprintf(name, sizeof(name), "%s string component", what);
	expect_str(name, rec->variant.var_1.str_comp, SOME_STRING);
}

/* The final values the definition gives, after the loops the timer
 * counted (COUNTED) and one more. */
static void check_final_values(unsigned long counted, const struct dhry_locals *loc)
{
	expect_int("Int_Glob", dhry_int_glob, 5);
	expect_int("Bool_Glob", dhry_bool_glob, 1);
	expect_int("Ch_1_Glob", dhry_ch_1_glob, 'A');
	expect_int("Ch_2_Glob", dhry_ch_2_glob, 'B');
	expect_int("Arr_1_Glob[8]", dhry_arr_1_glob[8], 7);
	/* incremented once per loop: proves the count (modulo 2^32), which
	 * is the loop under way when the timer expired or the one before */
	unsigned loops = (unsigned)dhry_arr_2_glob[8][7] - 10u;
	if (loops - (unsigned)counted > 1u)
		wl_fail("wrong result: Arr_2_Glob[8][7] - 10 is %u after %lu loops and one more, "
			"the definition gives %lu or %lu (modulo 2^32)", loops, counted,
			counted, counted + 1);
	expect_record("Ptr_Glob->", dhry_ptr_glob, DHRY_IDENT_3, 17);
	expect_record("Next_Ptr_Glob->", dhry_next_ptr_glob, DHRY_IDENT_2, 18);
	if (dhry_ptr_glob->ptr_comp != dhry_next_ptr_glob->ptr_comp)
		wl_fail("wrong result: Ptr_Glob->Ptr_Comp and Next_Ptr_Glob->Ptr_Comp differ");
	expect_int("Int_1_Loc", loc->int_1, 5);
	expect_int("Int_2_Loc", loc->int_2, 13);
	expect_int("Int_3_Loc", loc->int_3, 7);
	expect_int("Enum_Loc", loc->enum_loc, DHRY_IDENT_2);
	expect_str("Str_1_Loc", loc->str_1, STRING_1);
	expect_str("Str_2_Loc", loc->str_2, STRING_2);
}

/* The locals of the definition's main, as it declares them. */
#define DHRY_LOCALS				\
	int int_1_loc;				\
	register int int_2_loc;			\
	int int_3_loc;				\
	register char ch_index;			\
	enum dhry_ident enum_loc;		\
	dhry_str30 str_1_loc;			\
	dhry_str30 str_2_loc

/*
 * One loop of the definition, its statements in their order, over the
 * locals of the function it is written in (DHRY_LOCALS).
 * Two functions run it: the timed loops, where the compiler drops what only
 * the next loop's start overwrites (the last three statements and Proc_2),
 * as it does in UnixBench's loop that never ends; and the loop after the
 * timer, whose results the checks read.
 */
#define DHRY_LOOP()									\
	do {										\
		dhry_proc_5();								\
		dhry_proc_4();								\
		/* Ch_1_Glob == 'A', Ch_2_Glob == 'B', Bool_Glob == true */		\
		int_1_loc = 2;								\
		int_2_loc = 3;								\
		strcpy(str_2_loc, STRING_2);						\
		enum_loc = DHRY_IDENT_2;						\
		dhry_bool_glob = !dhry_func_2(str_1_loc, str_2_loc);			\
		while (int_1_loc < int_2_loc) { /* once */				\
			int_3_loc = 5 * int_1_loc - int_2_loc;				\
			dhry_proc_7(int_1_loc, int_2_loc, &int_3_loc);			\
			int_1_loc += 1;							\
		}									\
		/* int_1_loc == 3, int_2_loc == 3, int_3_loc == 7 */			\
		dhry_proc_8(dhry_arr_1_glob, dhry_arr_2_glob, int_1_loc, int_3_loc);	\
		dhry_proc_1(dhry_ptr_glob);						\
		for (ch_index = 'A'; ch_index <= dhry_ch_2_glob; ++ch_index) { /* twice */ \
			if (enum_loc == dhry_func_1(ch_index, 'C')) { /* never */	\
				dhry_proc_6(DHRY_IDENT_1, &enum_loc);			\
				strcpy(str_2_loc, "DHRYSTONE PROGRAM, 3'RD STRING");	\
				int_2_loc = (int)dhry_run_index;			\
				dhry_int_glob = (int)dhry_run_index;			\
			}								\
		}									\
		int_2_loc = int_2_loc * int_1_loc;					\
		int_1_loc = int_2_loc / int_3_loc;					\
		int_2_loc = 7 * (int_2_loc - int_3_loc) - int_1_loc;			\
		/* int_1_loc == 1, int_2_loc == 13, int_3_loc == 7 */			\
		dhry_proc_2(&int_1_loc);						\
		/* int_1_loc == 5 */							\
	} while (0)

/* Where the timer's handler leaves the timed loops. */
static sigjmp_buf dhry_timer_expired;

static void dhry_on_alarm(int sig)
{
	(void)sig;
	siglongjmp(dhry_timer_expired, 1);
}

/*
 * UnixBench's main: the initialisations, the timer, and loops that never
 * end, which the timer's handler leaves. Nothing in them tests for the
 * end, so they are UnixBench's loops instruction for instruction.
 */
static noreturn __attribute__((noinline)) void dhry_timed_loops(double seconds)
{
	DHRY_LOCALS;

	dhry_next_ptr_glob = malloc(sizeof(struct dhry_record));
	dhry_ptr_glob = malloc(sizeof(struct dhry_record));
	if (!dhry_next_ptr_glob || !dhry_ptr_glob)
		wl_fail("out of memory");
	dhry_ptr_glob->ptr_comp = dhry_next_ptr_glob;
	dhry_ptr_glob->discr = DHRY_IDENT_1;
	dhry_ptr_glob->variant.var_1.enum_comp = DHRY_IDENT_3;
	dhry_ptr_glob->variant.var_1.int_comp = 40;
	strcpy(dhry_ptr_glob->variant.var_1.str_comp, SOME_STRING);
	strcpy(str_1_loc, STRING_1);
	dhry_arr_2_glob[8][7] = 10;

	dhry_run_index = 0;
	wl_arm_timer(seconds, dhry_on_alarm);
	for (dhry_run_index = 1;; ++dhry_run_index)
		DHRY_LOOP();
}

/*
 * One more loop, after the timer, and the checks of what it leaves. The
 * timer stopped a loop anywhere, but every value the checks read except
 * the count is rewritten from constants in each loop.
 */
static void dhry_check_loop(unsigned long counted)
{
	DHRY_LOCALS;

	strcpy(str_1_loc, STRING_1);
	DHRY_LOOP();
	if (wl_corrupt())
		str_2_loc[10] ^= 0x01;
	struct dhry_locals loc = { int_1_loc, int_2_loc, int_3_loc, enum_loc, str_1_loc, str_2_loc };
	check_final_values(counted, &loc);
}

int dhry2reg_main(int argc, char **argv)
{
	if (argc != 2)
		wl_usage("expected one argument");
	double seconds = wl_parse_seconds(argv[1]);

	if (sigsetjmp(dhry_timer_expired, 1) == 0)
		dhry_timed_loops(seconds);
	/* As UnixBench reports: the loop under way when the timer expired
	 * (or, where the compiler stores the count late, the one before). */
	unsigned long counted = dhry_run_index;
	dhry_check_loop(counted);
	wl_report_count(counted, 1, "lps");
	return 0;
}
