/*
 * util.c - the containers every stage shares: checked allocation, the
 * compilation's arena, growable arrays, bitsets (after QBE's BSet) and
 * identifier interning.
 */
#include <stdlib.h>
#include <string.h>

#include "frontend.h"

void die(const char *fmt, ...)
{
	va_list ap;

	fputs("mtpar: internal error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		die("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/* ---- arena: a chain of large blocks, bump-allocated ---- */

enum { ARENA_BLOCK = 1 << 20 };

typedef struct Block {
	struct Block *next;
	size_t used, size;
	max_align_t data[];
} Block;

static Block *arena_head;

void *arena_alloc(size_t n)
{
	Block *b = arena_head;
	size_t align = sizeof(max_align_t);
	void *p;

	n = (n + align - 1) / align * align;
	if (!b || b->size - b->used < n) {
		size_t size = n > ARENA_BLOCK ? n : ARENA_BLOCK;

		b = xmalloc(sizeof(*b) + size);
		b->next = arena_head;
		b->used = 0;
		b->size = size;
		arena_head = b;
	}
	p = (char *)b->data + b->used;
	b->used += n;
	memset(p, 0, n);
	return p;
}

char *arena_strndup(const char *s, size_t n)
{
	char *d = arena_alloc(n + 1);

	memcpy(d, s, n);
	return d;
}

void arena_free_all(void)
{
	while (arena_head) {
		Block *next = arena_head->next;

		free(arena_head);
		arena_head = next;
	}
}

/* ---- growable arrays ---- */

/*
 * Each array's storage starts with a header that links it into the list of
 * the run that made it: the IR's arrays live in arena nodes and are never
 * freed one by one, so the run frees them all at its end (array_free_run).
 */
typedef struct ArrayBlock {
	struct ArrayBlock *prev, *next; /* NULL: not the run's (made outside one) */
	max_align_t data[];
} ArrayBlock;

static struct {
	bool on;
	ArrayBlock list; /* sentinel of a circular list */
} run_arrays;

static ArrayBlock *block_of(void *items)
{
	return (ArrayBlock *)((char *)items - offsetof(ArrayBlock, data));
}

static void unlink_block(ArrayBlock *b)
{
	b->prev->next = b->next;
	b->next->prev = b->prev;
	b->prev = b->next = NULL;
}

static void link_block(ArrayBlock *b)
{
	ArrayBlock *head = &run_arrays.list;

	b->prev = head;
	b->next = head->next;
	head->next->prev = b;
	head->next = b;
}

void array_reserve_(void **items, uint32_t *cap, uint32_t need, size_t elem)
{
	uint32_t c = *cap ? *cap : 4;
	ArrayBlock *b = *items ? block_of(*items) : NULL;
	bool run = b ? b->prev != NULL : run_arrays.on;

	if (need <= *cap)
		return;
	while (c < need)
		c *= 2;
	if (b && b->prev)
		unlink_block(b);
	b = xrealloc(b, sizeof(*b) + (size_t)c * elem);
	b->prev = b->next = NULL;
	if (run)
		link_block(b);
	*items = b->data;
	*cap = c;
}

void array_release_(void *items)
{
	ArrayBlock *b;

	if (!items)
		return;
	b = block_of(items);
	if (b->prev)
		unlink_block(b);
	free(b);
}

void array_begin_run(void)
{
	if (!run_arrays.list.next)
		run_arrays.list.next = run_arrays.list.prev = &run_arrays.list;
	run_arrays.on = true;
}

void array_free_run(void)
{
	ArrayBlock *head = &run_arrays.list;

	while (head->next && head->next != head) {
		ArrayBlock *b = head->next;

		unlink_block(b);
		free(b);
	}
	run_arrays.on = false;
}

/* ---- bitsets ---- */

static uint32_t nwords(uint32_t nbits)
{
	return (nbits + 63) / 64;
}

void bitset_init(Bitset *b, uint32_t nbits)
{
	b->nbits = nbits;
	b->words = arena_alloc(nwords(nbits) * sizeof(*b->words));
}

void bitset_set(Bitset *b, uint32_t i)
{
	if (i >= b->nbits)
		die("bitset_set: %u out of %u", i, b->nbits);
	b->words[i / 64] |= (uint64_t)1 << (i % 64);
}

void bitset_clear(Bitset *b, uint32_t i)
{
	if (i >= b->nbits)
		die("bitset_clear: %u out of %u", i, b->nbits);
	b->words[i / 64] &= ~((uint64_t)1 << (i % 64));
}

bool bitset_has(const Bitset *b, uint32_t i)
{
	return i < b->nbits && (b->words[i / 64] >> (i % 64) & 1);
}

void bitset_union(Bitset *dst, const Bitset *src)
{
	if (dst->nbits != src->nbits)
		die("bitset_union: sizes %u and %u", dst->nbits, src->nbits);
	for (uint32_t w = 0; w < nwords(dst->nbits); w++)
		dst->words[w] |= src->words[w];
}

bool bitset_equal(const Bitset *a, const Bitset *b)
{
	if (a->nbits != b->nbits)
		return false;
	return memcmp(a->words, b->words, nwords(a->nbits) * sizeof(*a->words)) == 0;
}

uint32_t bitset_count(const Bitset *b)
{
	uint32_t n = 0;

	for (uint32_t w = 0; w < nwords(b->nbits); w++)
		n += (uint32_t)__builtin_popcountll(b->words[w]);
	return n;
}

bool bitset_iter(const Bitset *b, uint32_t *i)
{
	for (uint32_t k = *i; k < b->nbits;) {
		uint64_t w = b->words[k / 64] >> (k % 64);

		if (w) {
			*i = k + (uint32_t)__builtin_ctzll(w);
			return *i < b->nbits;
		}
		k = (k / 64 + 1) * 64;
	}
	return false;
}

/* ---- maps from 64-bit keys: open addressing, linear probing ---- */

static uint32_t map_slot(const KeyMap *m, uint64_t key)
{
	uint64_t h = key * 0x9E3779B97F4A7C15ull; /* Fibonacci hashing */
	uint32_t j = (uint32_t)(h >> 32) & (m->cap - 1);

	while (m->keys[j] && m->keys[j] != key)
		j = (j + 1) & (m->cap - 1);
	return j;
}

static void map_grow(KeyMap *m)
{
	KeyMap old = *m;

	m->cap = old.cap ? old.cap * 2 : 64;
	m->keys = xcalloc(m->cap, sizeof(*m->keys));
	m->vals = xcalloc(m->cap, sizeof(*m->vals));
	for (uint32_t i = 0; i < old.cap; i++) {
		if (old.keys[i]) {
			uint32_t j = map_slot(m, old.keys[i]);

			m->keys[j] = old.keys[i];
			m->vals[j] = old.vals[i];
		}
	}
	free(old.keys);
	free(old.vals);
}

void map_put(KeyMap *m, uint64_t key, uint32_t val)
{
	uint32_t j;

	if (2 * (m->len + 1) > m->cap)
		map_grow(m);
	j = map_slot(m, key);
	m->len += !m->keys[j];
	m->keys[j] = key;
	m->vals[j] = val;
}

bool map_get(const KeyMap *m, uint64_t key, uint32_t *val)
{
	uint32_t j;

	if (!m->cap)
		return false;
	j = map_slot(m, key);
	if (!m->keys[j])
		return false;
	*val = m->vals[j];
	return true;
}

void map_free(KeyMap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

/* ---- interning: open addressing, names kept in the arena ---- */

typedef struct Slot {
	const char *name;
	uint32_t len, hash;
	int id;
} Slot;

static Slot *slots;
static uint32_t nslots, nused;
static Array(const char *) names;

static uint32_t hash_bytes(const char *s, size_t n)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static void intern_grow(void)
{
	Slot *old = slots;
	uint32_t oldn = nslots;

	nslots = nslots ? nslots * 2 : 1024;
	slots = xcalloc(nslots, sizeof(*slots));
	for (uint32_t i = 0; i < oldn; i++) {
		uint32_t j = old[i].hash & (nslots - 1);

		if (!old[i].name)
			continue;
		while (slots[j].name)
			j = (j + 1) & (nslots - 1);
		slots[j] = old[i];
	}
	free(old);
}

int intern(const char *s, size_t n)
{
	uint32_t h = hash_bytes(s, n), j;

	if (2 * (nused + 1) > nslots)
		intern_grow();
	if (names.len == 0)
		array_push(&names, ""); /* id 0: no name */
	for (j = h & (nslots - 1); slots[j].name; j = (j + 1) & (nslots - 1)) {
		if (slots[j].hash == h && slots[j].len == n && memcmp(slots[j].name, s, n) == 0)
			return slots[j].id;
	}
	slots[j].name = xstrndup(s, n);
	slots[j].len = (uint32_t)n;
	slots[j].hash = h;
	slots[j].id = (int)names.len;
	array_push(&names, slots[j].name);
	nused++;
	return slots[j].id;
}

void intern_release(void)
{
	for (uint32_t i = 0; i < nslots; i++)
		free((char *)slots[i].name);
	free(slots);
	slots = NULL;
	nslots = nused = 0;
	array_free(&names);
}

uint32_t intern_count(void)
{
	return names.len;
}

const char *intern_name(int id)
{
	if (id < 0 || (uint32_t)id >= names.len)
		return "";
	return names.items[id];
}
