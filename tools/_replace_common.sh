# Shared by replace_import_package.sh and replace_import_msadapter_to_mindtorch.sh (sourced, not run):
# option parsing, the common help text, and the call into _rewrite_imports.py. The sourcing script defines
# PROG, SCRIPT_DIR and usage_head (its own first help paragraph), then calls `run_rewriter MODE "$@"`.

usage() {
    usage_head
    cat <<USAGE
Directories .git, .hg, .svn, __pycache__, symlinks and virtual environments
(directories containing pyvenv.cfg) are skipped.

Options:
  -n, --dry-run   print a unified diff of the changes, write nothing
  -h, --help      show this help and exit

Environment:
  MINDTORCH_TOOLS_PYTHON  Python interpreter to use (default: python3)

Exit status: 0 on success, 1 if some file could not be written, 2 on usage
errors (unknown option, missing PROJECT_PATH).
USAGE
}

run_rewriter() {
    local mode="$1"
    shift
    local dry_run=() project_path="" path_given=0 python_bin
    while (($#)); do
        case "$1" in
            -h | --help) usage; exit 0 ;;
            -n | --dry-run) dry_run=(--dry-run) ;;
            --) shift; break ;;
            -*) echo "${PROG}: error: unknown option: $1" >&2; usage >&2; exit 2 ;;
            *)
                if ((path_given)); then
                    echo "${PROG}: error: only one PROJECT_PATH is accepted (got '${project_path}' and '$1')" >&2
                    exit 2
                fi
                project_path="$1"; path_given=1 ;;
        esac
        shift
    done
    if (($#)); then
        if ((path_given)) || (($# > 1)); then
            echo "${PROG}: error: only one PROJECT_PATH is accepted" >&2
            exit 2
        fi
        project_path="$1"; path_given=1
    fi
    ((path_given)) || project_path="./"

    if [[ ! -e "${project_path}" ]]; then
        echo "${PROG}: error: path does not exist: ${project_path}" >&2
        exit 2
    fi

    python_bin="${MINDTORCH_TOOLS_PYTHON:-python3}"
    if ! command -v "${python_bin}" >/dev/null 2>&1; then
        echo "${PROG}: error: Python interpreter not found: ${python_bin}" >&2
        exit 2
    fi

    exec "${python_bin}" "${SCRIPT_DIR}/_rewrite_imports.py" --mode "${mode}" --prog "${PROG}" \
        ${dry_run[@]+"${dry_run[@]}"} -- "${project_path}"
}
