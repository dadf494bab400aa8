"""Import: upload hand-history files or .zip archives, see what each one came to; watch
the poker client's folders (``ui.watch_panel``).

A page script.  The import runs beside the page (``ui.import_job``) so a large upload
does not block it: a fragment redraws the progress bar every half second, and the
finished job stays in the session so the counts stay on screen.  File names and hand texts are
untrusted: they are shown with ``st.dataframe`` and ``st.code`` only.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from analysis.faults import FAULTS, TRY_AGAIN, sentence
from analysis.pipeline.importer import STATUSES
from analysis.pipeline.reverify import ReverifySummary
from analysis.storage import deletion, samples
from parser.sources import ARCHIVE_SEP
from ui import data, state, watch_panel
from ui.import_job import ImportJob, ReverifyJob, UploadResult
from ui.labels import count

DELETE_KINDS = {
    "An import": deletion.imports,
    "A file": deletion.files,
    "A site": deletion.sites,
}

STATUS_NAMES = {
    "ok": "valid",
    "invalid": "invalid",
    "parse_error": "unreadable",
    "unsupported": "unsupported game",
    "incomplete": "incomplete",
}


@st.fragment(run_every=0.5)
def job_progress(key: str, caption: str) -> None:
    """Redrawn every half second while the job runs; the whole page once it is done."""
    job: ImportJob | ReverifyJob | None = st.session_state.get(key)
    if job is None:
        return
    if job.finished:
        st.rerun(scope="app")
    st.progress(job.fraction, text=job.text)
    st.caption(caption)


def job_links() -> dict[str, Any]:
    """What a job needs of the app: a connection of its own, the one-job-at-a-time lock,
    and the call that makes the pages read the database anew when it is done."""
    shared = state.shared()
    return {"connect": shared.connection.cursor, "lock": shared.lock,
            "on_done": lambda: state.imported(shared)}


def launch(job: ImportJob | ReverifyJob, key: str, results: str) -> None:
    """Start ``job`` and keep it under ``key``; redraw with its button disabled and its
    progress bar."""
    st.session_state[key] = job.start()
    st.session_state.pop(results, None)
    st.rerun()


def follow(key: str, results: str, caption: str) -> Any:
    """The progress of the job under ``key`` while it runs; once finished it moves to
    ``results``, where it stays (with its counts on screen) until the next one starts."""
    job: ImportJob | ReverifyJob | None = st.session_state.get(key)
    if job is not None and job.finished:
        st.session_state[results] = job
        del st.session_state[key]
    elif job is not None:
        job_progress(key, caption)
    return st.session_state.get(results)


COUNT_COLUMNS = ("hands read", "added", "already present", "stored with errors",
                 *STATUS_NAMES.values())


def why_not_read(r: UploadResult) -> str:
    """The rejections of one upload, without its name in front (the row already names it)."""
    out = []
    for message in [*r.summary.rejected, *r.summary.summary_errors]:
        for prefix in (f"{r.name}: ", f"{r.name}{ARCHIVE_SEP}", f"{r.name}:"):
            if message.startswith(prefix):
                message = message[len(prefix):]
                break
        out.append(message)
    return "; ".join(out)


def file_row(r: UploadResult) -> dict[str, Any]:
    """One upload's counts.  A file that is not a hand history is no hand: the importer
    counts it as one unreadable text (as ``drawlab verify`` does), the page as a file
    not read, with why."""
    s = r.summary
    read = s.hands - len(s.rejected)
    # a file imported before is not read again: its hands are the ones already stored
    present = s.already_present + (r.stored - s.added - s.already_present
                                   if s.unchanged and read == 0 else 0)
    row: dict[str, Any] = {"file": r.name, "hands read": max(read, present + s.added),
                           "added": s.added, "already present": max(present, 0),
                           "stored with errors": r.stored_errors}
    for status in STATUSES:
        row[STATUS_NAMES[status]] = s.statuses.get(status, 0)
    row[STATUS_NAMES["parse_error"]] -= len(s.rejected)
    row["not read"] = why_not_read(r)
    return row


def counts_table(results: list[UploadResult]) -> pd.DataFrame:
    """Totals first, then one row per upload; why a file was not read comes beside its
    name, where it is seen without scrolling."""
    rows = [file_row(r) for r in results]
    total: dict[str, Any] = {"file": f"All {count(len(rows), 'file')}"}
    for column in COUNT_COLUMNS:
        total[column] = sum(int(row[column]) for row in rows)
    rejected = sum(1 for row in rows if row["not read"])
    total["not read"] = count(rejected, "file") if rejected else ""
    return pd.DataFrame([total, *rows], columns=["file", "not read", *COUNT_COLUMNS])


def headline(results: list[UploadResult]) -> str:
    """The one sentence above the table: what the whole upload added."""
    added = sum(r.summary.added for r in results)
    present = sum(r.summary.already_present for r in results)
    rejected = sum(1 for r in results if r.summary.rejected or r.summary.summary_errors)
    text = (f"{count(len(results), 'file')}: {count(added, 'new hand')} added, "
            f"{present:,} already in the database")
    if rejected:
        text += f"; {count(rejected, 'file')} could not be read"
    summaries = sum(r.summary.summaries for r in results)
    if summaries:  # tournament summaries: their own verdict, never a hand
        new = sum(r.summary.summaries_added for r in results)
        text += (f"; {summaries:,} tournament {'summary' if summaries == 1 else 'summaries'}"
                 f" read, {new:,} new or newer (see the Tournaments page)")
    return text + "."


def failures(results: list[UploadResult]) -> pd.DataFrame:
    rows = [
        {"file": p.file, "line": p.line, "verdict": STATUS_NAMES.get(p.status, p.status),
         "code": p.code, "message": p.message}
        for r in results for p in r.summary.problem_log
    ]
    return pd.DataFrame(rows, columns=["file", "line", "verdict", "code", "message"])


def show_results(results: list[UploadResult]) -> None:
    st.subheader("Result")
    st.text(headline(results))
    st.dataframe(counts_table(results), hide_index=True, key="import_counts", width="stretch",
                 column_config={"file": st.column_config.TextColumn("file", width="medium"),
                                "not read": st.column_config.TextColumn(
                                    "not read", width="medium",
                                    help="Files that are not hand histories, and why")})
    for r in results:
        if len(r.members):
            with st.expander("Files inside an archive, one by one"):
                st.text(r.name)
                st.dataframe(r.members.rename(columns=STATUS_NAMES), hide_index=True,
                             width="stretch")
    failed = failures(results)
    total_problems = sum(r.summary.problems for r in results)
    stored_errors = sum(r.stored_errors for r in results)
    if failed.empty and stored_errors:
        st.warning(f"No hand read now failed, but {count(stored_errors, 'hand')} of these "
                   "files stored earlier have errors: the Replayer lists them under "
                   "\"Hands with problems\".")
        return
    if failed.empty:
        st.success("No hand failed.")
        return
    st.subheader(f"Hands that failed: {count(total_problems, 'problem')}")
    if total_problems > len(failed):
        st.caption(f"The first {len(failed):,} problems are listed.")
    st.dataframe(failed, hide_index=True, key="import_failures", width="stretch")
    labels = [f"{f}:{line} — {code}" for f, line, code in
              zip(failed["file"], failed["line"], failed["code"], strict=True)]
    pick = st.selectbox("Show the raw text of", range(len(labels)),
                        format_func=lambda i: labels[i], key="failure_pick")
    if pick is not None:
        row = failed.iloc[int(pick)]
        st.text(str(row["message"]))
        text = data.hand_text_at(state.connection(), state.db_path(), state.generation(),
                                 str(row["file"]), int(row["line"]))
        st.code(text if text is not None else "(text not found in the database)",
                language=None, line_numbers=True)


def main() -> None:
    st.title("Import hand histories")
    st.caption("Files from PokerStars, Full Tilt, Winamax, Merge, KingsClub, OnGame, Boss "
               "or PHH, one by one or in .zip archives. A hand already in the database is "
               "never added twice.")
    uploads = st.file_uploader("Hand-history files or .zip archives",
                               accept_multiple_files=True, key="uploads")
    job: ImportJob | None = st.session_state.get("import_job")
    running = job is not None and not job.finished
    if st.button("Import", type="primary", disabled=not uploads or running,
                 key="import_button"):
        files = [(u.name, u.getvalue()) for u in uploads or []]
        launch(ImportJob(files, **job_links()), "import_job", "import_results")
    done: ImportJob | None = follow(
        "import_job", "import_results", "The import goes on while you use the other pages."
    )
    if done is not None:
        if done.fault:
            st.error(done.fault, icon=":material/error:")
        elif done.error:
            st.error("The import stopped on an internal error; what was read before it is kept.")
            st.code(done.error, language=None)
        show_results(done.results)
    samples_section(busy=running)
    delete_section(busy=running)
    watch_panel.main()
    replay_section(busy=running)


def _remove_samples() -> None:
    removed = samples.remove(state.connection())
    state.imported_now()
    st.session_state["samples_removed"] = removed


def samples_section(busy: bool) -> None:
    """The bundled samples, removable in one click while they are in the database."""
    removed = st.session_state.pop("samples_removed", None)
    if removed:
        st.success(f"Removed the {removed:,} sample hands: every figure is now your own "
                   "hands'.", icon=":material/delete:")
    n = samples.count(state.connection())
    if n == 0:
        return
    st.divider()
    st.subheader("The bundled samples")
    st.caption(f"{n:,} simulated hands imported on the first start so there was something to "
               "look at. They are kept apart from your own hands; removing them deletes "
               "them and everything stored of them (also `drawlab samples --remove`).")
    st.button("Remove the sample hands", key="remove_samples", disabled=busy,
              icon=":material/delete:", on_click=_remove_samples)


def _selection(kind: str, value: str) -> deletion.Selection:
    if kind == "An import":
        return deletion.of_batch(state.connection(), int(value))
    return deletion.of_file(value) if kind == "A file" else deletion.of_site(value)


def _delete(kind: str, value: str) -> None:
    """The confirmed delete; the one-import-at-a-time lock keeps it from running beside
    an import of this dashboard."""
    st.session_state.pop("delete_asked", None)
    shared = state.shared()
    if not shared.lock.acquire(blocking=False):
        st.session_state["delete_failed"] = "An import is running: delete after it."
        return
    try:
        selection = _selection(kind, value)
        doomed = deletion.count(state.connection(), selection)
        deletion.delete(state.connection(), selection)
        state.imported_now()
        st.session_state["delete_deleted"] = f"Deleted {doomed.text()}."
    except FAULTS as exc:
        st.session_state["delete_failed"] = sentence(exc, "delete", state.db_path(), TRY_AGAIN)
    finally:
        shared.lock.release()


def delete_section(busy: bool) -> None:
    """Delete an import, a file's hands or a site's hands: pick, see how many hands go,
    confirm (``analysis.storage.deletion``; ``drawlab delete`` does the same)."""
    st.divider()
    st.subheader("Delete hands")
    deleted, failed = (st.session_state.pop(k, None) for k in ("delete_deleted", "delete_failed"))
    if deleted:
        st.success(deleted, icon=":material/delete:")
    if failed:
        st.error(failed, icon=":material/error:")
    st.caption("An import, a file's hands or a site's hands, and everything stored of them: "
               "their tags and notes, unreadable texts, the tournaments they told. Statistics "
               "follow. The same files can be imported again (also `drawlab delete`).")
    kind = st.radio("Delete", list(DELETE_KINDS), horizontal=True, key="delete_kind")
    stored = DELETE_KINDS[str(kind)](state.connection())
    if not stored:
        st.caption("Nothing stored.")
        return
    pick = st.selectbox("Which", range(len(stored)), key="delete_pick",
                        format_func=lambda i: f"{stored[i].label} — {stored[i].held.text()}")
    chosen = stored[int(pick or 0)]
    asked = (str(kind), chosen.value)
    if st.button("Delete…", key="delete_ask", disabled=busy, icon=":material/delete:"):
        st.session_state["delete_asked"] = asked
    if st.session_state.get("delete_asked") != asked:
        return
    selection = _selection(*asked)
    doomed = deletion.count(state.connection(), selection)
    st.warning(f"This deletes {doomed.text()} and everything stored of them. It cannot be "
               "undone.", icon=":material/warning:")
    st.text(deletion.what_goes(doomed, selection))
    if doomed.watched:
        st.warning(deletion.watched_warning(doomed), icon=":material/visibility:")
    yes, no = st.columns(2)
    yes.button(f"Yes, delete {doomed.text()}", key="delete_confirm",
               type="primary", disabled=busy, on_click=_delete, args=asked)
    if no.button("Cancel", key="delete_cancel"):
        st.session_state.pop("delete_asked", None)
        st.rerun()


def reverify_table(summary: ReverifySummary) -> pd.DataFrame:
    rows = [
        {"verdict": STATUS_NAMES[s], "before": summary.before[s], "after": summary.after[s]}
        for s in STATUSES
        if summary.before[s] or summary.after[s]
    ]
    return pd.DataFrame(rows, columns=["verdict", "before", "after"])


def replay_section(busy: bool) -> None:
    """Every stored hand replayed again: what a user does after upgrading DrawLab."""
    st.divider()
    st.subheader("Replay the stored hands again")
    st.caption("After upgrading DrawLab: every hand in the database is read again from its "
               "text and replayed, so its verdict, problems, pots and statistics are what "
               "this version says; texts an older DrawLab could not read become hands if "
               "this one reads them.")
    job: ReverifyJob | None = st.session_state.get("reverify_job")
    running = job is not None and not job.finished
    if job is None and data.replay_suggested(state.connection(), state.db_path(),
                                             state.generation()):
        st.info("This database's hands were replayed by an older DrawLab: replay them to "
                "fill in what this version stores (the pots of each hand).")
    if st.button("Replay stored hands", disabled=busy or running, key="reverify_button"):
        launch(ReverifyJob(**job_links()), "reverify_job", "reverify_results")
    done: ReverifyJob | None = follow(
        "reverify_job", "reverify_results", "The replay goes on while you use the other pages."
    )
    if done is None:
        return
    if done.fault:
        st.error(done.fault, icon=":material/error:")
        return
    if done.error or done.summary is None:
        st.error("The replay stopped on an internal error; the pages done before it are kept.")
        st.code(done.error or "", language=None)
        return
    for line in done.summary.headlines():
        st.text(line)
    st.dataframe(reverify_table(done.summary), hide_index=True, key="reverify_counts")


main()
