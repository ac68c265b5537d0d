/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the `filter` file and error_log show for a filter or a failed one. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "engine/filter/filter.h"
#include "util/util.h"

static const char *const messages[] = {
    [UFT_FILTER_ERR_NONE] = "No error",
    [UFT_FILTER_ERR_INVALID_OP] = "Invalid operator",
    [UFT_FILTER_ERR_TOO_MANY_OPEN] = "Too many '('",
    [UFT_FILTER_ERR_TOO_MANY_CLOSE] = "Too few '('",
    [UFT_FILTER_ERR_MISSING_QUOTE] = "Missing matching quote",
    [UFT_FILTER_ERR_MISSING_BRACE_OPEN] = "Missing '{'",
    [UFT_FILTER_ERR_MISSING_BRACE_CLOSE] = "Missing '}'",
    [UFT_FILTER_ERR_OPERAND_TOO_LONG] = "Operand too long",
    [UFT_FILTER_ERR_EXPECT_STRING] = "Expecting string field",
    [UFT_FILTER_ERR_EXPECT_DIGIT] = "Expecting numeric field",
    [UFT_FILTER_ERR_ILLEGAL_FIELD_OP] = "Illegal operation for field type",
    [UFT_FILTER_ERR_FIELD_NOT_FOUND] = "Field not found",
    [UFT_FILTER_ERR_ILLEGAL_INTVAL] = "Illegal integer value",
    [UFT_FILTER_ERR_BAD_SUBSYS_FILTER] =
	"Couldn't find or set field in one of a subsystem's events",
    [UFT_FILTER_ERR_TOO_MANY_PREDS] = "Too many terms in predicate expression",
    [UFT_FILTER_ERR_INVALID_FILTER] = "Meaningless filter expression",
    [UFT_FILTER_ERR_IP_FIELD_ONLY] = "Only 'ip' field is supported for function trace",
    [UFT_FILTER_ERR_INVALID_VALUE] = "Invalid value (did you forget quotes)?",
    [UFT_FILTER_ERR_INVALID_CPULIST] = "Invalid cpulist",
    [UFT_FILTER_ERR_NO_FUNCTION] = "Function not found",
    [UFT_FILTER_ERR_ERRNO] = "Error",
    [UFT_FILTER_ERR_NO_FILTER] = "No filter found",
};

const char *uft_filter_strerror(int code)
{
	if (code <= 0 || code >= (int)ARRAY_SIZE(messages))
		return messages[UFT_FILTER_ERR_ERRNO];
	return messages[code];
}

/* snprintf that keeps counting once the buffer is full. */
static void put(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
	va_list ap;
	char *dst = *at < len ? buf + *at : NULL;
	size_t room = *at < len ? len - *at : 0;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(dst, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		*at += (size_t)n;
}

int uft_filter_error_text(const char *expr, const struct uft_filter_error *err, char *buf,
			  size_t len)
{
	size_t at = 0;

	if (len)
		buf[0] = '\0';
	if (!expr) {
		put(buf, len, &at, "none\n");
		return (int)at;
	}
	put(buf, len, &at, "%s\n", expr);
	if (!err)
		return (int)at;
	if (err->code <= 0) {
		put(buf, len, &at, "Error: (%d)\n", err->code);
		return (int)at;
	}
	/* The caret sits under byte pos, clamped to the expression's end. */
	size_t pos = err->pos > 0 ? (size_t)err->pos : 0;
	if (pos > strlen(expr))
		pos = strlen(expr);
	put(buf, len, &at, "%*s^\nparse_error: %s\n", (int)pos, "", uft_filter_strerror(err->code));
	return (int)at;
}
