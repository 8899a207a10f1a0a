/*
 * output.c - back end: the one writer of every file mtpar writes (the
 * parallel program, the DOT graphs, the Gantt chart).  The text goes to a
 * temporary file beside the target, which is renamed into place only when
 * everything was written: a failed run never leaves a partial file.
 */
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

OutputStatus output_write(const char *path, OutputFn *fn, void *ctx)
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
	ok = ok && rename(tmp, path) == 0;
	if (!ok) {
		err = errno;
		unlink(tmp);
		errno = err;
	}
	free(tmp);
	return ok ? OUTPUT_OK : OUTPUT_CANNOT_WRITE;
}
