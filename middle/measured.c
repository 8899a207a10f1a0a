/*
 * measured.c - middle stage: task times measured by a --profile run
 * (api/mtpar_rt.h writes them), read back for --costs FILE.  A task the
 * profile names (same function, same task name: same input and -np) gets
 * its measured time per run in the cost model's units; the others get
 * their estimate scaled by how far the measured tasks of their function
 * were from theirs, so that the two kinds of cost stay comparable.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "middle.h"

enum { MAX_NAME = 400 };

/* One "task FUNC CORE NAME runs N ns T predicted P" line into m; false if it is not one. */
static bool parse_task(Measured *m, const char *line)
{
	char func[MAX_NAME + 1], name[MAX_NAME + 1];
	unsigned long long runs, ns;
	double predicted;
	int core;
	MeasuredTask t;

	if (sscanf(line, "task %400s %d %400s runs %llu ns %llu predicted %lf", func, &core, name,
	           &runs, &ns, &predicted) != 6)
		return false;
	if (!runs)
		return true; /* never ran: nothing measured */
	t.func = intern(func, strlen(func));
	t.name = arena_strndup(name, strlen(name));
	t.cost = (double)ns / (double)runs * COST_UNITS_PER_NS;
	t.predicted = predicted;
	array_push(&m->tasks, t);
	return true;
}

Measured *measured_load(const char *path)
{
	Source *src = source_read(path);
	Measured *m;

	if (!src)
		return NULL;
	m = ARENA_NEW(Measured);
	for (uint32_t i = 0; i < src->nlines; i++) {
		uint32_t start = src->line_start[i];
		uint32_t end = i + 1 < src->nlines ? src->line_start[i + 1] : src->len;
		char *line = arena_strndup(src->text + start, end - start);

		if (strncmp(line, "task ", 5) == 0 && !parse_task(m, line)) {
			error_at(src, start, "not a task line of a profile "
			                     "(task FUNC CORE NAME runs N ns T predicted P)");
			m = NULL;
			break;
		}
	}
	source_free(src); /* the tasks' names are the arena's */
	return m;
}

/* The last line the profile has for function f's task name (later runs win); NULL if none. */
static const MeasuredTask *find_task(const Measured *m, int func, const char *name)
{
	for (uint32_t i = m->tasks.len; i-- > 0;)
		if (m->tasks.items[i].func == func && strcmp(m->tasks.items[i].name, name) == 0)
			return &m->tasks.items[i];
	return NULL;
}

const char *measured_key(const MT *root, const char *name)
{
	for (const MT *l = root; l && l->kind == MT_RB; l = l->parent)
		name = plan_fmt("MT%d/%s", l->id, name);
	return name;
}

double measured_apply(const Measured *m, const Func *f, const MT *root, ParTaskList *tasks)
{
	const MeasuredTask **found;
	double got = 0, est = 0, ratio;

	if (!m)
		return 1;
	found = xcalloc(tasks->len ? tasks->len : 1, sizeof(*found));
	for (uint32_t i = 0; i < tasks->len; i++) {
		const char *name = tasks->items[i].name;
		const MeasuredTask *t = name ? find_task(m, f->name, measured_key(root, name)) : NULL;

		found[i] = t;
		if (t && t->predicted > 0) {
			got += t->cost;
			est += t->predicted;
		}
	}
	ratio = est > 0 && got > 0 ? got / est : 1;
	for (uint32_t i = 0; i < tasks->len; i++)
		tasks->items[i].cost = found[i] ? found[i]->cost : tasks->items[i].cost * ratio;
	free(found);
	return ratio;
}
