/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The protobuf encoder of the Perfetto export, byte for byte: varints at
 * their boundaries, negative ints, doubles, strings, nested messages whose
 * length needs one and two bytes, and a TracePacket as the export writes
 * it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "export/pb.h"
#include "export/perfetto_proto.h"

static void expect_bytes(const struct pb *p, const uint8_t *want, size_t n)
{
	assert_false(p->oom);
	assert_int_equal(p->len, n);
	assert_memory_equal(p->buf, want, n);
}

static void test_varints(void **state)
{
	(void)state;
	static const struct {
		uint64_t v;
		uint8_t bytes[10];
		unsigned n;
	} cases[] = {
	    {0, {0x00}, 1},
	    {1, {0x01}, 1},
	    {127, {0x7f}, 1},
	    {128, {0x80, 0x01}, 2},
	    {300, {0xac, 0x02}, 2},
	    {16383, {0xff, 0x7f}, 2},
	    {16384, {0x80, 0x80, 0x01}, 3},
	    {UINT64_MAX, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 10},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t out[10];
		assert_int_equal(pb_varint_put(out, cases[i].v), cases[i].n);
		assert_memory_equal(out, cases[i].bytes, cases[i].n);
	}
}

static void test_scalars(void **state)
{
	(void)state;
	struct pb p = {0};
	pb_uint(&p, 1, 150);   /* the encoding guide's example: 08 96 01 */
	pb_int(&p, 2, -1);     /* ten bytes, as int64 */
	pb_uint(&p, 16, 1);    /* a two-byte tag */
	pb_double(&p, 5, 1.0); /* wire type 1, little endian */
	static const uint8_t want[] = {0x08, 0x96, 0x01, 0x10, 0xff, 0xff, 0xff, 0xff, 0xff,
				       0xff, 0xff, 0xff, 0xff, 0x01, 0x80, 0x01, 0x01, 0x29,
				       0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf0, 0x3f};
	expect_bytes(&p, want, sizeof(want));
	pb_free(&p);
}

static void test_strings(void **state)
{
	(void)state;
	struct pb p = {0};
	pb_str(&p, 2, "testing"); /* the guide's example: 12 07 74 65 73 74 69 6e 67 */
	pb_str(&p, 3, "");
	static const uint8_t want[] = {0x12, 0x07, 't', 'e', 's', 't', 'i', 'n', 'g', 0x1a, 0x00};
	expect_bytes(&p, want, sizeof(want));
	pb_free(&p);
}

static void test_nested(void **state)
{
	(void)state;
	struct pb p = {0};
	pb_begin(&p, 3); /* the guide's example: 1a 03 08 96 01 */
	pb_uint(&p, 1, 150);
	pb_end(&p);
	pb_begin(&p, 4); /* empty */
	pb_end(&p);
	static const uint8_t want[] = {0x1a, 0x03, 0x08, 0x96, 0x01, 0x22, 0x00};
	expect_bytes(&p, want, sizeof(want));
	pb_free(&p);
}

/* Bodies of 198 and 201 bytes: their lengths take two bytes, each body
 * moves by one. */
static void test_nested_long(void **state)
{
	(void)state;
	char s[198];
	memset(s, 'a', sizeof(s));
	struct pb p = {0};
	pb_begin(&p, 1);
	pb_begin(&p, 2);
	pb_bytes(&p, 1, s, sizeof(s) - 3); /* tag, 2-byte length, 195: 198 bytes */
	pb_end(&p);			   /* tag, 2-byte length, 198: 201 */
	pb_end(&p);
	assert_false(p.oom);
	assert_int_equal(p.len, 3 + 201);
	static const uint8_t head[] = {0x0a, 0xc9, 0x01, 0x12, 0xc6, 0x01, 0x0a, 0xc3, 0x01, 'a'};
	assert_memory_equal(p.buf, head, sizeof(head));
	assert_int_equal(p.buf[p.len - 1], 'a');
	pb_free(&p);
}

static void test_too_deep(void **state)
{
	(void)state;
	struct pb p = {0};
	for (int i = 0; i <= PB_MAX_NEST; i++)
		pb_begin(&p, 1);
	assert_true(p.oom);
	pb_free(&p);
}

/* A slice begin as the export writes it: Trace.packet { timestamp,
 * sequence id, flags, track_event { type, track_uuid, name_iid } }. */
static void test_packet(void **state)
{
	(void)state;
	struct pb p = {0};
	pb_begin(&p, PF_TRACE_PACKET);
	pb_uint(&p, PF_PKT_TIMESTAMP, 1000);
	pb_uint(&p, PF_PKT_SEQ_ID, 1);
	pb_uint(&p, PF_PKT_SEQ_FLAGS, PF_SEQ_NEEDS_INCREMENTAL_STATE);
	pb_begin(&p, PF_PKT_TRACK_EVENT);
	pb_uint(&p, PF_TE_TYPE, PF_TYPE_SLICE_BEGIN);
	pb_uint(&p, PF_TE_TRACK_UUID, 5);
	pb_uint(&p, PF_TE_NAME_IID, 1);
	pb_end(&p);
	pb_end(&p);
	static const uint8_t want[] = {0x0a, 0x0f, 0x40, 0xe8, 0x07, 0x50, 0x01, 0x68, 0x02,
				       0x5a, 0x06, 0x48, 0x01, 0x58, 0x05, 0x50, 0x01};
	expect_bytes(&p, want, sizeof(want));
	pb_reset(&p);
	assert_int_equal(p.len, 0);
	pb_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_varints),	cmocka_unit_test(test_scalars),
	    cmocka_unit_test(test_strings),	cmocka_unit_test(test_nested),
	    cmocka_unit_test(test_nested_long), cmocka_unit_test(test_too_deep),
	    cmocka_unit_test(test_packet),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
