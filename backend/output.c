/*
 * output.c - back end: the one writer of every file mtpar writes (the
 * parallel program, the DOT graphs, the Gantt chart).  The text goes to a
 * temporary file beside the target, which is renamed into place only when
 * everything was written: a failed run never leaves a partial file.  A
 * symbolic link is written through (the temporary goes beside its target),
 * and a target that is not a regular file (a FIFO, /dev/null, a terminal) is
 * written in place: neither is ever replaced by a regular file.  The path
 * "-" is standard output, written at the commit.  A library caller's run
 * (mtpar_compile) keeps every file in memory instead and gets the texts at
 * the commit.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend.h"

/* mkstemp creates 0600; the output should get the usual mode. */
static mode_t current_umask(void)
{
	mode_t m = umask(022);

	umask(m);
	return m;
}

/* A FIFO, device or socket: opened and written as it is. */
static OutputStatus write_in_place(const char *path, OutputFn *fn, void *ctx)
{
	FILE *out = fopen(path, "w");
	bool ok;

	if (!out)
		return OUTPUT_CANNOT_CREATE;
	ok = fn(out, ctx);
	ok = fclose(out) == 0 && ok;
	return ok ? OUTPUT_OK : OUTPUT_CANNOT_WRITE;
}

static OutputStatus write_and_rename(const char *path, OutputFn *fn, void *ctx);

/* A file of the run waiting for the commit: a temporary file, or text in memory. */
typedef struct Pending {
	char *tmp, *path; /* tmp: NULL for text in memory */
	char *text;
	size_t len;
} Pending;

/* The files of the run being written, held back until it succeeds (one run at a time). */
static struct {
	bool open;
	OutputTake *take; /* the library caller's: every file stays in memory */
	void *user;
	Array(Pending) files;
} held;

void output_begin(OutputTake *take, void *user)
{
	held.open = true;
	held.take = take;
	held.user = user;
}

static void held_clear(void)
{
	for (uint32_t i = 0; i < held.files.len; i++) {
		free(held.files.items[i].tmp);
		free(held.files.items[i].path);
		free(held.files.items[i].text);
	}
	array_free(&held.files);
	held.open = false;
	held.take = NULL;
}

/* Text in memory to its place: the caller's, or standard output. */
static bool commit_text(const Pending *f)
{
	if (held.take) {
		held.take(held.user, f->path, f->text, f->len);
		return true;
	}
	if (fwrite(f->text, 1, f->len, stdout) != f->len || fflush(stdout) != 0) {
		error_plain("standard output: cannot write output: %s", strerror(errno));
		return false;
	}
	return true;
}

bool output_commit(void)
{
	bool ok = true;
	int err = 0;

	for (uint32_t i = 0; i < held.files.len; i++) {
		Pending *f = &held.files.items[i];

		if (!f->tmp) {
			ok = ok && commit_text(f);
			continue;
		}
		if (ok && rename(f->tmp, f->path) != 0) {
			err = errno;
			error_plain("%s: cannot write output: %s", f->path, strerror(err));
			ok = false;
		}
		if (!ok)
			unlink(f->tmp);
	}
	held_clear();
	errno = err;
	return ok;
}

void output_abort(void)
{
	for (uint32_t i = 0; i < held.files.len; i++)
		if (held.files.items[i].tmp)
			unlink(held.files.items[i].tmp);
	held_clear();
}

/* Standard output, or any file of a library caller's run: text held until the commit. */
static OutputStatus write_to_memory(const char *path, OutputFn *fn, void *ctx)
{
	Pending f = { NULL, xstrndup(path, strlen(path)), NULL, 0 };
	FILE *out = open_memstream(&f.text, &f.len);
	bool ok;

	if (!out) {
		free(f.path);
		return OUTPUT_CANNOT_CREATE;
	}
	ok = fn(out, ctx);
	ok = fclose(out) == 0 && ok;
	if (ok && !held.open) { /* outside a run: straight out */
		ok = commit_text(&f);
		free(f.text);
		free(f.path);
	} else if (ok) {
		array_push(&held.files, f);
	} else {
		free(f.text);
		free(f.path);
	}
	return ok ? OUTPUT_OK : OUTPUT_CANNOT_WRITE;
}

OutputStatus output_write(const char *path, OutputFn *fn, void *ctx)
{
	struct stat st, lst;
	char *target;
	OutputStatus r;

	if (held.take || strcmp(path, "-") == 0)
		return write_to_memory(path, fn, ctx);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		errno = EISDIR; /* found now, before any file of the run is renamed */
		return OUTPUT_CANNOT_CREATE;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return write_in_place(path, fn, ctx);
	if (lstat(path, &lst) != 0 || !S_ISLNK(lst.st_mode) || !(target = realpath(path, NULL)))
		return write_and_rename(path, fn, ctx);
	r = write_and_rename(target, fn, ctx);
	free(target);
	return r;
}

static OutputStatus write_and_rename(const char *path, OutputFn *fn, void *ctx)
{
	size_t n = strlen(path);
	char *tmp = xmalloc(n + 16);
	FILE *out = NULL;
	int fd, err;
	bool ok;

	memcpy(tmp, path, n);
	memcpy(tmp + n, ".tmp.XXXXXX", 12);
	fd = mkstemp(tmp);
	if (fd < 0 || !(out = fdopen(fd, "w"))) {
		err = errno;
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		errno = err;
		return OUTPUT_CANNOT_CREATE;
	}
	ok = fchmod(fd, 0666 & ~current_umask()) == 0 && fn(out, ctx);
	ok = fclose(out) == 0 && ok;
	if (ok && held.open) {
		Pending f = { tmp, xstrndup(path, n), NULL, 0 };

		array_push(&held.files, f);
		return OUTPUT_OK;
	}
	ok = ok && rename(tmp, path) == 0;
	if (!ok) {
		err = errno;
		unlink(tmp);
		errno = err;
	}
	free(tmp);
	return ok ? OUTPUT_OK : OUTPUT_CANNOT_WRITE;
}
