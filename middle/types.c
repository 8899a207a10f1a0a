/*
 * types.c - access analysis: what it needs of C types: the values an
 * integer type holds (typedefs the lowering left opaque included), an
 * object's size, its members and qualifiers, whether it may hold a pointer.
 */
#include <string.h>

#include "middle.h"

/* ------------------------------------------------------------------ */
/* Types                                                               */
/* ------------------------------------------------------------------ */

/* Integer typedefs the lowering may leave opaque (TY_NAMED). */
bool type_int_typedef(int tag, int *size, bool *uns)
{
	static const struct {
		const char *name;
		int size;
		bool uns;
	} names[] = {
		{ "int8_t", 1, false }, { "uint8_t", 1, true }, { "int16_t", 2, false },
		{ "uint16_t", 2, true }, { "int32_t", 4, false }, { "uint32_t", 4, true },
		{ "int64_t", 8, false }, { "uint64_t", 8, true }, { "size_t", 8, true },
		{ "ssize_t", 8, false }, { "ptrdiff_t", 8, false }, { "intptr_t", 8, false },
		{ "uintptr_t", 8, true }, { "bool", 1, true }, { "_Bool", 1, true },
	};
	const char *s = tag ? intern_name(tag) : NULL;

	for (size_t i = 0; s && i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(s, names[i].name) == 0) {
			*size = names[i].size;
			*uns = names[i].uns;
			return true;
		}
	}
	return false;
}

bool type_int(const Type *t, int *size, bool *uns)
{
	if (!t)
		return false;
	switch (t->kind) {
	case TY_INT:
		*size = t->size > 0 ? (int)t->size : 4;
		*uns = t->is_unsigned;
		return true;
	case TY_BOOL:
		*size = 1;
		*uns = true;
		return true;
	case TY_ENUM:
		*size = 4;
		*uns = false;
		return true;
	case TY_NAMED:
		return type_int_typedef(t->tag, size, uns);
	default:
		return false;
	}
}

/* Every value an object of integer type t can hold. */
Ival type_range(const Type *t)
{
	int size;
	bool uns;

	if (!type_int(t, &size, &uns))
		return IV_TOP;
	if (t->kind == TY_BOOL)
		return (Ival){ 0, 1 };
	if (size >= 8)
		return uns ? (Ival){ 0, IV_PINF } : IV_TOP;
	if (uns)
		return (Ival){ 0, ((int64_t)1 << (8 * size)) - 1 };
	return (Ival){ -((int64_t)1 << (8 * size - 1)), ((int64_t)1 << (8 * size - 1)) - 1 };
}


bool type_is_ptr(const Type *t) { return t && t->kind == TY_PTR; }
bool type_is_array(const Type *t) { return t && t->kind == TY_ARRAY; }

/* Bytes of an object of type t, -1 unknown; void counts 1 (GNU arithmetic). */
int64_t type_size(const Type *t)
{
	int size;
	bool uns;
	int64_t n;

	if (!t)
		return -1;
	if (t->kind == TY_VOID || t->kind == TY_FUNC)
		return 1;
	if (t->size > 0)
		return t->size;
	if (t->kind == TY_PTR)
		return 8;
	if (t->kind == TY_ARRAY && t->array_len > 0 && (n = type_size(t->base)) > 0 &&
	    n <= INT64_MAX / t->array_len)
		return n * t->array_len;
	if (type_int(t, &size, &uns))
		return size;
	return -1;
}

const Member *type_member(const Type *t, int name)
{
	if (!t || (t->kind != TY_STRUCT && t->kind != TY_UNION))
		return NULL;
	for (uint32_t i = 0; i < t->members.len; i++)
		if (t->members.items[i].name == name)
			return &t->members.items[i];
	return NULL;
}

/* Could an object of type t hold a pointer?  Opaque typedefs may. */
bool type_has_pointer(const Type *t, int depth)
{
	if (!t || depth > 16)
		return true;
	switch (t->kind) {
	case TY_PTR:
	case TY_NAMED:
		return t->kind == TY_PTR || !type_int_typedef(t->tag, &(int){ 0 }, &(bool){ false });
	case TY_ARRAY:
		return type_has_pointer(t->base, depth + 1);
	case TY_STRUCT:
	case TY_UNION:
		for (uint32_t i = 0; i < t->members.len; i++)
			if (type_has_pointer(t->members.items[i].type, depth + 1))
				return true;
		return false;
	default:
		return false;
	}
}

bool type_is_const(const Type *t)
{
	while (t && t->kind == TY_ARRAY && !t->is_const)
		t = t->base;
	return t && t->is_const;
}

bool type_is_volatile(const Type *t)
{
	while (t && t->kind == TY_ARRAY && !t->is_volatile)
		t = t->base;
	return t && t->is_volatile;
}
