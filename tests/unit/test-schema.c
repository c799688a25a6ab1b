/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The schema layer: JSON records decoded into structs by tables. */
#include <errno.h>

#include "lib/schema.h"
#include "testlib.h"

struct sensor {
	const char *label;
	struct opt_num value;
	struct opt_bool alarm;
};

struct device {
	const char *name;
	ARRAY_OF(struct device) slaves;
	struct device *backing;
};

struct rec {
	json_object *json;
	const char *schema, *host;
	struct opt_int cpus;
	struct opt_num load;
	struct opt_bool boost;
	struct {
		json_object *json;
		const char *governor;
		ARRAY_OF(struct opt_int) khz;
	} freq;
	ARRAY_OF(const char *) tags;
	ARRAY_OF(struct opt_num) ci95;
	ARRAY_OF(struct sensor) sensors;
	struct device device;
	struct sensor main_sensor;
	json_object *extra;
};

static const struct schema sensor_schema = SCHEMA(struct sensor,
	FIELD_STR(struct sensor, label, REQUIRED),
	FIELD_NUM(struct sensor, value, OPTIONAL),
	FIELD_BOOL(struct sensor, alarm, OPTIONAL));

static const struct schema device_schema;
static const struct schema device_schema = SCHEMA(struct device,
	FIELD_STR(struct device, name, OPTIONAL),
	FIELD_OBJ_ARRAY(struct device, slaves, OPTIONAL, device_schema),
	FIELD_PTR(struct device, backing, OPTIONAL, device_schema));

static const struct schema freq_schema = SCHEMA(typeof(((struct rec *)0)->freq),
	FIELD_SELF(typeof(((struct rec *)0)->freq), json),
	FIELD_STR(typeof(((struct rec *)0)->freq), governor, OPTIONAL),
	FIELD_INT_ARRAY(typeof(((struct rec *)0)->freq), khz, OPTIONAL));

static const struct schema rec_schema = SCHEMA(struct rec,
	FIELD_SELF(struct rec, json),
	FIELD_STR(struct rec, schema, REQUIRED),
	FIELD_STR(struct rec, host, OPTIONAL),
	FIELD_INT(struct rec, cpus, OPTIONAL),
	FIELD_NUM(struct rec, load, OPTIONAL),
	FIELD_BOOL(struct rec, boost, OPTIONAL),
	FIELD_OBJ(struct rec, freq, OPTIONAL, freq_schema),
	FIELD_STR_ARRAY(struct rec, tags, OPTIONAL),
	FIELD_NUM_ARRAY(struct rec, ci95, OPTIONAL),
	FIELD_OBJ_ARRAY(struct rec, sensors, OPTIONAL, sensor_schema),
	FIELD_OBJ(struct rec, device, OPTIONAL, device_schema),
	FIELD_OBJ(struct rec, main_sensor, OPTIONAL, sensor_schema),
	FIELD_JSON(struct rec, extra, OPTIONAL));

static const struct schema closed_schema = SCHEMA_FLAGS(struct sensor, SCHEMA_CLOSED,
	FIELD_STR(struct sensor, label, REQUIRED),
	FIELD_NUM(struct sensor, value, OPTIONAL));

/* Decodes s into r, asserting success. */
static json_object *decode(const char *s, struct rec *r)
{
	json_object *o = json_lit(s);
	_cleanup_free_ char *error = NULL;
	int ret = schema_decode(&rec_schema, o, "", r, &error);
	if (ret < 0)
		print_error("%s\n", error);
	assert_int_equal(ret, 0);
	assert_null(error);
	return o;
}

/* Decoding s fails with exactly this message. */
static void expect_error(const struct schema *s, const char *text, const char *path, const char *message)
{
	_cleanup_json_ json_object *o = json_lit(text);
	_cleanup_free_ char *error = NULL;
	unsigned char out[sizeof(struct rec)];
	assert_true(s->size <= sizeof(out));
	memset(out, 0x55, sizeof(out));
	assert_int_equal(schema_decode(s, o, path, out, &error), -EBADMSG);
	assert_non_null(error);
	assert_string_equal(error, message);
	/* a failed decode leaves nothing behind to free */
	for (size_t i = 0; i < s->size; i++)
		assert_int_equal(out[i], 0);
}

static void types(void **state)
{
	struct rec r;
	_cleanup_json_ json_object *o = decode("{\"schema\": \"x/1\", \"host\": \"board\", \"cpus\": 4, "
					       "\"load\": 0.25, \"boost\": false, \"freq\": {\"governor\": "
					       "\"performance\", \"khz\": [600000, null, 1.8e6]}, "
					       "\"extra\": [1, {\"a\": 2}]}",
					       &r);
	assert_ptr_equal(r.json, o);
	assert_string_equal(r.schema, "x/1");
	assert_string_equal(r.host, "board");
	assert_true(r.cpus.known);
	assert_int_equal(r.cpus.v, 4);
	assert_true(r.load.known);
	assert_true(r.load.v == 0.25);
	assert_true(r.boost.known && !r.boost.v);
	assert_true(is_false(r.boost) && !is_true(r.boost));
	assert_non_null(r.freq.json);
	assert_string_equal(r.freq.governor, "performance");
	assert_int_equal(r.freq.khz.n, 3);
	assert_int_equal(r.freq.khz.v[0].v, 600000);
	assert_false(r.freq.khz.v[1].known);
	assert_int_equal(r.freq.khz.v[2].v, 1800000);
	assert_true(json_object_is_type(r.extra, json_type_array));
	schema_free(&rec_schema, &r);
}

/* Missing and null facts stay unknown, never 0 or "". */
static void null_and_missing(void **state)
{
	struct rec r;
	_cleanup_json_ json_object *o =
		decode("{\"schema\": \"x/1\", \"host\": null, \"cpus\": null, \"boost\": null, \"freq\": null}", &r);
	assert_null(r.host);
	assert_false(r.cpus.known);
	assert_null(r.cpus.json);
	assert_int_equal(int_or(r.cpus, -1), -1);
	assert_false(r.load.known);
	assert_true(num_or(r.load, 7.5) == 7.5);
	assert_false(r.boost.known);
	assert_false(is_true(r.boost) || is_false(r.boost));
	/* an object that is not there: every member unknown, its json NULL */
	assert_null(r.freq.json);
	assert_null(r.freq.governor);
	assert_int_equal(r.freq.khz.n, 0);
	assert_null(r.freq.khz.json);
	/* a missing list is unknown; an empty one is known and empty */
	assert_null(r.tags.json);
	assert_null(r.extra);
	schema_free(&rec_schema, &r);

	_cleanup_json_ json_object *e = decode("{\"schema\": \"x/1\", \"tags\": []}", &r);
	assert_non_null(r.tags.json);
	assert_int_equal(r.tags.n, 0);
	schema_free(&rec_schema, &r);

	/* no object at all: all unknown */
	_cleanup_free_ char *error = NULL;
	struct sensor none;
	assert_int_equal(schema_decode(&sensor_schema, NULL, "", &none, &error), 0);
	assert_null(none.label);
	assert_false(none.value.known);
}

static void required_keys(void **state)
{
	expect_error(&rec_schema, "{\"host\": \"a\"}", "", "schema is missing");
	expect_error(&rec_schema, "{\"schema\": null}", "", "schema is missing");
	/* the path is the caller's: a record inside another */
	expect_error(&rec_schema, "{}", "environment.before", "environment.before.schema is missing");
	expect_error(&rec_schema, "{\"schema\": \"x\", \"sensors\": [{\"label\": \"in0\"}, {\"value\": 3}]}", "",
		     "sensors[1].label is missing");
	/* an object that is not there has no required keys; one that is has them */
	struct rec r;
	_cleanup_json_ json_object *o = decode("{\"schema\": \"x\", \"main_sensor\": null}", &r);
	assert_null(r.main_sensor.label);
	schema_free(&rec_schema, &r);
	expect_error(&rec_schema, "{\"schema\": \"x\", \"main_sensor\": {}}", "", "main_sensor.label is missing");
}

/* Keys the table does not list are left alone, unless the schema is closed. */
static void unknown_keys(void **state)
{
	struct rec r;
	_cleanup_json_ json_object *o =
		decode("{\"schema\": \"x/1\", \"future\": {\"a\": 1}, \"freq\": {\"new_fact\": true}}", &r);
	assert_non_null(json_object_object_get(r.json, "future"));
	schema_free(&rec_schema, &r);

	_cleanup_json_ json_object *ok = json_lit("{\"label\": \"in0\", \"value\": 1}");
	_cleanup_free_ char *error = NULL;
	struct sensor s;
	assert_int_equal(schema_decode(&closed_schema, ok, "", &s, &error), 0);
	expect_error(&closed_schema, "{\"label\": \"in0\", \"alarm\": true}", "power.sensors[2]",
		     "power.sensors[2].alarm is not a key of this record");
}

static void nested_arrays(void **state)
{
	struct rec r;
	_cleanup_json_ json_object *o = decode(
		"{\"schema\": \"x/1\", \"tags\": [\"a\", null, \"c\"], \"ci95\": [1.5, 2.5], "
		"\"sensors\": [{\"label\": \"in0\", \"value\": 5000, \"alarm\": true}, {\"label\": \"temp1\"}], "
		"\"device\": {\"name\": \"dm-0\", \"slaves\": [{\"name\": \"sda\", \"slaves\": [{\"name\": \"sda2\"}]}, "
		"{\"name\": \"sdb\", \"backing\": {\"name\": \"loop0\"}}]}}",
		&r);
	assert_int_equal(r.tags.n, 3);
	assert_string_equal(r.tags.v[0], "a");
	assert_null(r.tags.v[1]);
	assert_string_equal(r.tags.v[2], "c");
	assert_int_equal(r.ci95.n, 2);
	assert_true(r.ci95.v[1].v == 2.5);
	assert_int_equal(r.sensors.n, 2);
	assert_string_equal(r.sensors.v[0].label, "in0");
	assert_true(r.sensors.v[0].value.v == 5000 && is_true(r.sensors.v[0].alarm));
	assert_false(r.sensors.v[1].value.known || r.sensors.v[1].alarm.known);
	/* records inside records, to any depth */
	assert_string_equal(r.device.name, "dm-0");
	assert_int_equal(r.device.slaves.n, 2);
	assert_string_equal(r.device.slaves.v[0].slaves.v[0].name, "sda2");
	assert_null(r.device.slaves.v[0].backing);
	assert_non_null(r.device.slaves.v[1].backing);
	assert_string_equal(r.device.slaves.v[1].backing->name, "loop0");
	assert_null(r.device.backing);
	schema_free(&rec_schema, &r);
	assert_int_equal(r.sensors.n, 0);
}

/* Numbers copied out keep the text the record has. */
static void exact_numbers(void **state)
{
	struct rec r;
	_cleanup_json_ json_object *o = decode("{\"schema\": \"x\", \"load\": 1234.50, \"cpus\": 8}", &r);
	_cleanup_json_ json_object *out = json_object_new_object();
	jset(out, "load", num_json(r.load));
	jset(out, "cpus", int_json(r.cpus));
	jset(out, "host", num_json((struct opt_num){0}));
	assert_string_equal(jdump(out, false), "{\"load\":1234.50,\"cpus\":8,\"host\":null}");
	schema_free(&rec_schema, &r);
}

static void bad_types(void **state)
{
	expect_error(&rec_schema, "[1]", "", "the record is a list, expected an object");
	expect_error(&rec_schema, "{\"schema\": 1}", "", "schema is a number, expected a string");
	expect_error(&rec_schema, "{\"schema\": \"x\", \"cpus\": \"4\"}", "", "cpus is a string, expected a number");
	expect_error(&rec_schema, "{\"schema\": \"x\", \"boost\": 1}", "", "boost is a number, expected a bool");
	expect_error(&rec_schema, "{\"schema\": \"x\", \"freq\": \"ondemand\"}", "",
		     "freq is a string, expected an object");
	expect_error(&rec_schema, "{\"schema\": \"x\", \"tags\": \"a,b\"}", "", "tags is a string, expected a list");
	expect_error(&rec_schema, "{\"schema\": \"x\", \"sensors\": [{\"label\": \"a\"}, null]}", "",
		     "sensors[1] is null, expected an object");
	expect_error(&rec_schema, "{\"schema\": \"x\", \"freq\": {\"khz\": [1, true]}}", "",
		     "freq.khz[1] is a bool, expected a number");
	expect_error(&rec_schema, "{\"schema\": \"x\", \"sensors\": [{\"label\": \"a\", \"value\": []}]}", "result",
		     "result.sensors[0].value is a list, expected a number");
	expect_error(&rec_schema,
		     "{\"schema\": \"x\", \"device\": {\"slaves\": [{\"name\": \"a\"}, {\"backing\": {\"name\": {}}}]}}",
		     "", "device.slaves[1].backing.name is an object, expected a string");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(types),
		cmocka_unit_test(null_and_missing),
		cmocka_unit_test(required_keys),
		cmocka_unit_test(unknown_keys),
		cmocka_unit_test(nested_arrays),
		cmocka_unit_test(exact_numbers),
		cmocka_unit_test(bad_types),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
