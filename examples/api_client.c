/*
 * api_client.c - libmtpar from a program: reads a C file into memory,
 * parallelizes it for 4 cores and prints the parallel program on stdout,
 * the way a DNN toolchain would call mtpar on the C it has just generated.
 *
 *   cc api_client.c $(pkg-config --cflags --libs mtpar) -o api_client
 *   ./api_client net.c > net.par.c
 */
#include <stdio.h>
#include <stdlib.h>

#include <mtpar.h>

/* The whole file, NUL-terminated; NULL on error. */
static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (text = malloc((size_t)n + 1)) != NULL) {
		*len = fread(text, 1, (size_t)n, f);
		text[*len] = '\0';
	}
	fclose(f);
	return text;
}

/* Diagnostics as they come: errors and warnings to stderr, remarks counted. */
static void on_diag(void *user, mtpar_diag_kind kind, const char *text)
{
	if (kind == MTPAR_DIAG_OPTIMIZED)
		++*(int *)user;
	if (kind == MTPAR_DIAG_ERROR || kind == MTPAR_DIAG_WARNING)
		fputs(text, stderr);
}

int main(int argc, char **argv)
{
	mtpar_options opts;
	mtpar_context *ctx;
	size_t len, out_len;
	char *text;
	const char *out;
	int optimized = 0, rc;

	if (argc != 2) {
		fprintf(stderr, "usage: %s FILE.c\n", argv[0]);
		return 2;
	}
	if (!(text = read_file(argv[1], &len))) {
		perror(argv[1]);
		return 1;
	}
	mtpar_options_init(&opts);
	opts.ncores = 4;
	opts.report = MTPAR_REPORT_OPTIMIZED;
	ctx = mtpar_context_new();
	if (!ctx || mtpar_add_source(ctx, argv[1], text, len) != 0)
		return 1;
	free(text);
	mtpar_set_diag_handler(ctx, on_diag, &optimized);
	rc = mtpar_compile(ctx, &opts);
	if (rc == 0 && (out = mtpar_output(ctx, 0, &out_len)) != NULL)
		fwrite(out, 1, out_len, stdout);
	fprintf(stderr, "api_client: %s: %s, %d remarks of what was parallelized\n", argv[1],
	        rc == 0 ? "compiled" : "failed", optimized);
	mtpar_context_free(ctx);
	return rc;
}
