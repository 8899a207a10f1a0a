/*
 * main.c - the mtpar command: GCC-style options in, mtpar_run out.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mtpar.h"

static const char usage[] =
	"Usage: mtpar [options] FILE...\n"
	"Parallelize sequential C (DNN generator output) for N cores.\n"
	"The files are analysed together as one program; each FILE.c is written\n"
	"back as FILE.par.c beside it.\n"
	"\n"
	"Options:\n"
	"  -np N            schedule for N cores (default 2)\n"
	"  -o FILE          write the output to FILE (one input only); '-' is\n"
	"                   standard output, as a FILE operand '-' is standard input\n"
	"  -P               no #line directives in the output\n"
	"  -v               progress, and per file the functions parallelized\n"
	"  -D NAME[=VALUE]  define a macro (for #if, and as a constant size or bound)\n"
	"  -U NAME          undefine a macro\n"
	"  -I DIR           search DIR for headers whose macros the file uses\n"
	"  -std=STD, -ansi, -O0, -Os, -O2, ...\n"
	"                   the compiler's language standard and optimization level,\n"
	"                   for the macros #if reads (__STDC_VERSION__, __OPTIMIZE__)\n"
	"  --dump=STAGE     print a stage to stdout and write no program;\n"
	"                   STAGE is pp, funcs, ir, mt, mfg, mtg or sched\n"
	"  --dot[=]FILE     write the macro-task graphs as Graphviz DOT\n"
	"  --dot-mfg[=]FILE write the macro-flow graphs as Graphviz DOT\n"
	"  --dot-func[=]NAME  draw only function NAME, in full, in --dot and --dot-mfg\n"
	"  --dot-sched[=]FILE write the static schedules as DOT: a cluster per core\n"
	"  --report[-CLASS...][=FILE]\n"
	"                   remarks, as GCC's -fopt-info: optimized (what was\n"
	"                   parallelized), missed (what was not, and why), note\n"
	"                   (every macro task), all; default optimized and missed;\n"
	"                   to FILE instead of stderr\n"
	"  -fno-diagnostics-show-caret  no source line and caret under errors\n"
	"  --api=API        openmp (default): OpenMP with a switch per core;\n"
	"                   oscar: OSCAR-API parallel sections with #pragma oscar\n"
	"  --profile        the output times each task, wait and region and\n"
	"                   appends them at exit to $MTPAR_PROFILE (mtpar.prof)\n"
	"  --costs FILE     schedule with the task times of such a profile\n"
	"  --cost-model=M   default: parallelize only where the predicted gain\n"
	"                   pays for the fork and the waits; unlimited: wherever\n"
	"                   there is any gain (testing on small inputs)\n"
	"  --power          set each core's frequency/voltage per task: slower\n"
	"                   where the schedule has slack, off while waiting;\n"
	"                   never longer than at full speed\n"
	"  --deadline T     the same, finishing by T: seconds (2e-3, 2ms, 500us)\n"
	"                   or a factor of the full-speed schedule (1.5x)\n"
	"  --fv-table FILE  frequency/voltage states and power model (implies\n"
	"                   --power); see mtpar(1)\n"
	"  --gantt FILE     write the schedules as an SVG Gantt chart\n"
	"  --help           print this help and exit\n"
	"  --version        print the version and exit\n"
	"\n"
	"Report bugs with the input file and the command line.\n";

__attribute__((format(printf, 1, 2)))
static int bad_usage(const char *fmt, ...)
{
	va_list ap;

	fputs("mtpar: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'mtpar --help' for more information.\n", stderr);
	return 1;
}

/* The value of "-X VALUE" or "-XVALUE"; NULL when missing. */
static const char *option_value(int argc, char **argv, int *i, const char *flag)
{
	size_t n = strlen(flag);

	if (argv[*i][n] != '\0')
		return argv[*i] + n + (argv[*i][n] == '=');
	if (*i + 1 >= argc)
		return NULL;
	return argv[++*i];
}

static bool parse_cores(const char *s, int *n)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v < 1 || v > 1024)
		return false;
	*n = (int)v;
	return true;
}

/*
 * "--name VALUE" or "--name=VALUE" at argv[*i]: true when argv[*i] is that
 * option, with *v its value (NULL when missing).
 */
static bool long_option(int argc, char **argv, int *i, const char *name, const char **v)
{
	size_t n = strlen(name);

	if (strncmp(argv[*i], name, n) != 0 || (argv[*i][n] != '\0' && argv[*i][n] != '='))
		return false;
	*v = option_value(argc, argv, i, name);
	return true;
}

/*
 * What follows "--report": "" (the decisions: optimized and missed),
 * "-CLASS" one or more times (optimized, missed, note, all), then
 * optionally "=FILE" (the remarks go to FILE), as GCC's -fopt-info.
 */
static bool parse_report(mtpar_options *o, const char *s)
{
	static const struct { const char *name; unsigned mask; } classes[] = {
		{ "optimized", MTPAR_REPORT_OPTIMIZED }, { "missed", MTPAR_REPORT_MISSED },
		{ "note", MTPAR_REPORT_NOTE }, { "all", MTPAR_REPORT_ALL },
	};
	unsigned mask = 0;

	while (*s == '-') {
		size_t k, n = strcspn(s + 1, "-=");

		for (k = 0; k < sizeof(classes) / sizeof(classes[0]); k++)
			if (strlen(classes[k].name) == n && strncmp(s + 1, classes[k].name, n) == 0)
				break;
		if (k == sizeof(classes) / sizeof(classes[0]))
			return false;
		mask |= classes[k].mask;
		s += 1 + n;
	}
	if (*s == '=')
		o->report_file = s + 1;
	else if (*s)
		return false;
	o->report = mask ? mask : MTPAR_REPORT_OPTIMIZED | MTPAR_REPORT_MISSED;
	return true;
}

/* --deadline: "1.5x" (a factor of the makespan), or seconds with s, ms, us or ns. */
static bool parse_deadline(const char *s, mtpar_options *o)
{
	static const struct { const char *suffix; double scale; } units[] = {
		{ "", 1 }, { "s", 1 }, { "ms", 1e-3 }, { "us", 1e-6 }, { "ns", 1e-9 }, { "x", 1 },
	};
	char *end;
	double v = strtod(s, &end);

	if (end == s || !(v > 0) || v > 1e300)
		return false;
	for (size_t k = 0; k < sizeof(units) / sizeof(units[0]); k++) {
		if (strcmp(end, units[k].suffix) != 0)
			continue;
		o->deadline = v * units[k].scale;
		o->deadline_relative = units[k].suffix[0] == 'x';
		o->power = MTPAR_POWER_DEADLINE;
		return true;
	}
	return false;
}

/* --power, --deadline, --fv-table, --gantt; 0, 1 on error, 2 when not one of them. */
static int parse_power_option(mtpar_options *o, int argc, char **argv, int *i)
{
	const char *a = argv[*i], *v;

	if (strcmp(a, "--power") == 0) {
		if (o->power == MTPAR_POWER_NONE)
			o->power = MTPAR_POWER_FASTEST;
		return 0;
	}
	if (long_option(argc, argv, i, "--deadline", &v))
		return v && parse_deadline(v, o) ? 0
		       : bad_usage("'--deadline' needs a time in seconds (2e-3, 2ms) or a factor (1.5x)");
	if (long_option(argc, argv, i, "--fv-table", &v)) {
		if (!v || !*v || strncmp(v, "--", 2) == 0)
			return bad_usage("missing argument after '--fv-table'");
		o->fv_table = v;
		if (o->power == MTPAR_POWER_NONE)
			o->power = MTPAR_POWER_FASTEST;
		return 0;
	}
	if (long_option(argc, argv, i, "--gantt", &v)) {
		if (!v || !*v || strncmp(v, "--", 2) == 0)
			return bad_usage("missing argument after '--gantt'");
		o->gantt = v;
		return 0;
	}
	return 2;
}

/*
 * `NAME`, `NAME=VALUE` or (-D) `NAME(PARAMS)=VALUE`, as GCC takes them: it
 * refuses `-D=3`, `-D1A` and `-D'X('`, and so does mtpar.
 */
/*
 * -std=STD and -ansi: the macros a compiler predefines for the standard
 * (GCC's values), which #if reads; mtpar's own default is the compiler's
 * that built it (gnu17 for GCC 12).  "!NAME" undefines NAME.
 */
static int std_defines(mtpar_options *o, const char *a)
{
	static const struct {
		const char *names;
		const char *version; /* NULL: C90, no __STDC_VERSION__ */
	} stds[] = {
		{ " c89 c90 iso9899:1990 gnu89 gnu90 ", NULL },
		{ " iso9899:199409 ", "__STDC_VERSION__=199409L" },
		{ " c99 c9x iso9899:1999 iso9899:199x gnu99 gnu9x ", "__STDC_VERSION__=199901L" },
		{ " c11 c1x iso9899:2011 gnu11 gnu1x ", "__STDC_VERSION__=201112L" },
		{ " c17 c18 iso9899:2017 iso9899:2018 gnu17 gnu18 ", "__STDC_VERSION__=201710L" },
		{ " c2x gnu2x ", "__STDC_VERSION__=202000L" },
		{ " c23 gnu23 ", "__STDC_VERSION__=202311L" },
	};
	const char *std = strcmp(a, "-ansi") == 0 ? "c90" : a + 5;
	char key[32];

	if (strlen(std) + 3 > sizeof(key))
		return bad_usage("unrecognized command-line option '%s'", a);
	snprintf(key, sizeof(key), " %s ", std);
	for (size_t i = 0; i < sizeof(stds) / sizeof(*stds); i++) {
		if (!strstr(stds[i].names, key))
			continue;
		o->defines[o->ndefines++] = stds[i].version ? stds[i].version : "!__STDC_VERSION__";
		o->defines[o->ndefines++] = strncmp(std, "gnu", 3) == 0 ? "!__STRICT_ANSI__"
		                                                         : "__STRICT_ANSI__=1";
		return 0;
	}
	return bad_usage("unrecognized command-line option '%s'", a);
}

/* -O0, -O1, -O2, -O3, -Os, -Oz, -Ofast, -Og, -O: __OPTIMIZE__ and its kin for #if. */
static int optimize_defines(mtpar_options *o, const char *a)
{
	bool none = strcmp(a, "-O0") == 0, size = a[2] == 's' || a[2] == 'z';
	char key[16];

	if (strlen(a) + 3 > sizeof(key) || strchr(a, ' '))
		return bad_usage("unrecognized command-line option '%s'", a);
	snprintf(key, sizeof(key), " %s ", a);
	if (!strstr(" -O0 -O -O1 -O2 -O3 -Os -Oz -Ofast -Og ", key))
		return bad_usage("unrecognized command-line option '%s'", a);
	o->defines[o->ndefines++] = none ? "!__OPTIMIZE__" : "__OPTIMIZE__=1";
	o->defines[o->ndefines++] = none ? "__NO_INLINE__=1" : "!__NO_INLINE__";
	o->defines[o->ndefines++] = size ? "__OPTIMIZE_SIZE__=1" : "!__OPTIMIZE_SIZE__";
	return 0;
}

static bool macro_spec_ok(const char *v, bool define)
{
	size_t n = 0;

	if (!(v[0] == '_' || isalpha((unsigned char)v[0])))
		return false;
	while (v[n] == '_' || isalnum((unsigned char)v[n]))
		n++;
	if (!define)
		return v[n] == '\0';
	if (v[n] == '(') {
		const char *close = strchr(v + n, ')'), *eq = strchr(v + n, '=');

		return close && (!eq || close < eq);
	}
	return v[n] == '\0' || v[n] == '=';
}

/* Recognizes one option at argv[*i]; returns 0, 1 on error, -1 to exit 0. */
static int parse_option(mtpar_options *o, int argc, char **argv, int *i)
{
	const char *a = argv[*i], *v;
	int rc;

	if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
		return fputs(usage, stdout), -1;
	if (strcmp(a, "--version") == 0)
		return printf("mtpar %s\n", MTPAR_VERSION), -1;
	if (strncmp(a, "--api=", 6) == 0) {
		if (strcmp(a + 6, "openmp") != 0 && strcmp(a + 6, "oscar") != 0)
			return bad_usage("unknown API in '%s' (openmp or oscar)", a);
		o->oscar_api = strcmp(a + 6, "oscar") == 0;
		return 0;
	}
	if (strncmp(a, "--cost-model=", 13) == 0) {
		if (strcmp(a + 13, "default") != 0 && strcmp(a + 13, "unlimited") != 0)
			return bad_usage("unknown cost model in '%s' (default or unlimited)", a);
		o->unlimited_cost = strcmp(a + 13, "unlimited") == 0;
		return 0;
	}
	if (strncmp(a, "--report", 8) == 0) {
		if (!parse_report(o, a + 8))
			return bad_usage("unknown remark class in '%s' (optimized, missed, note or all)", a);
		return o->report_file && !*o->report_file ? bad_usage("missing file name in '%s'", a) : 0;
	}
	if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0)
		return o->verbose = 1, 0;
	if (strcmp(a, "-P") == 0)
		return o->no_line_directives = 1, 0;
	if (strcmp(a, "-fno-diagnostics-show-caret") == 0)
		return o->no_caret = 1, 0;
	if (strcmp(a, "-fdiagnostics-show-caret") == 0)
		return o->no_caret = 0, 0;
	if (strcmp(a, "--profile") == 0)
		return o->profile = 1, 0;
	if (strcmp(a, "--costs") == 0 || strncmp(a, "--costs=", 8) == 0) {
		if (a[7] == '=')
			o->costs = a + 8;
		else if (*i + 1 < argc)
			o->costs = argv[++*i];
		else
			return bad_usage("missing argument after '%s'", a);
		return 0;
	}
	if ((rc = parse_power_option(o, argc, argv, i)) != 2)
		return rc;
	if (long_option(argc, argv, i, "--dot", &v) || long_option(argc, argv, i, "--dot-mfg", &v) ||
	    long_option(argc, argv, i, "--dot-func", &v) || long_option(argc, argv, i, "--dot-sched", &v)) {
		if (!v || !*v)
			return bad_usage("missing argument after '%s'", a);
		if (a[5] == '\0' || a[5] == '=')
			o->dot_mtg = v;
		else if (a[6] == 'm')
			o->dot_mfg = v;
		else if (a[6] == 's')
			o->dot_sched = v;
		else
			o->dot_func = v;
		return 0;
	}
	if (strncmp(a, "--dump=", 7) == 0) {
		o->dump = mtpar_dump_from_name(a + 7);
		return o->dump == MTPAR_DUMP_NONE ? bad_usage("unknown stage in '%s'", a) : 0;
	}
	if (strncmp(a, "-np", 3) == 0) {
		v = option_value(argc, argv, i, "-np");
		return v && parse_cores(v, &o->ncores) ? 0 : bad_usage("'-np' needs a core count from 1 to 1024");
	}
	if (strncmp(a, "-std=", 5) == 0 || strcmp(a, "-ansi") == 0)
		return std_defines(o, a);
	if (a[1] == 'O')
		return optimize_defines(o, a);
	if (a[1] == 'o' || a[1] == 'D' || a[1] == 'U' || a[1] == 'I') {
		char flag[3] = { '-', a[1], '\0' };

		if (!(v = option_value(argc, argv, i, flag)) || !*v)
			return bad_usage("missing argument to '%s'", flag);
		if ((a[1] == 'D' || a[1] == 'U') && !macro_spec_ok(v, a[1] == 'D'))
			return bad_usage("'%s%s': a macro name must be an identifier%s", flag, v,
			                 a[1] == 'D' ? ", its parameters closed by ')'" : "");
		if (a[1] == 'o')
			o->output = v;
		else if (a[1] == 'I')
			o->include_dirs[o->ninclude_dirs++] = v;
		else if (a[1] == 'D')
			o->defines[o->ndefines++] = v;
		else {
			char *u = malloc(strlen(v) + 2);

			if (!u)
				return bad_usage("out of memory");
			sprintf(u, "!%s", v);
			o->defines[o->ndefines++] = u;
		}
		return 0;
	}
	return bad_usage("unrecognized command-line option '%s'", a);
}

/* Parses the command line into opts and files, then runs; the exit status. */
static int run_command(int argc, char **argv, mtpar_options *opts, const char **files)
{
	int nfiles = 0, rc;
	bool stdin_seen = false;

	for (int i = 1; i < argc; i++) {
		if (argv[i][0] != '-' || argv[i][1] == '\0') {
			if (strcmp(argv[i], "-") == 0 && stdin_seen)
				return bad_usage("standard input ('-') given twice");
			stdin_seen |= strcmp(argv[i], "-") == 0;
			files[nfiles++] = argv[i];
			continue;
		}
		rc = parse_option(opts, argc, argv, &i);
		if (rc != 0)
			return rc < 0 ? 0 : rc;
	}
	if (nfiles == 0)
		return bad_usage("no input files");
	if (opts->output && nfiles > 1 && opts->dump == MTPAR_DUMP_NONE)
		return bad_usage("cannot specify '-o' with several input files");
	return mtpar_run(opts, nfiles, files);
}

int main(int argc, char **argv)
{
	mtpar_options opts;
	const char **files = calloc((size_t)argc, sizeof(*files));
	int rc = 1;

	mtpar_options_init(&opts);
	opts.defines = calloc(3 * (size_t)argc, sizeof(*opts.defines)); /* -O adds three */
	opts.include_dirs = calloc((size_t)argc, sizeof(*opts.include_dirs));
	if (files && opts.defines && opts.include_dirs)
		rc = run_command(argc, argv, &opts, files);
	free(files);
	free(opts.defines);
	free(opts.include_dirs);
	return rc;
}
