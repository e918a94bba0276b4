#!/usr/bin/python
# Copyright (c) the prefs authors

from __future__ import annotations

DOCUMENTATION = r"""
module: migrate
short_description: Migrate legacy preferences with a prefs plan, with its per-key report
description:
  - Runs a migration plan over legacy preferences files with C(prefs migrate --json) and
    returns its report, which accounts for every legacy key (migrated, coerced, fallback,
    kept, dropped, ...).
  - Changed when any file was migrated. A file already migrated is V(unchanged), so a
    second run reports no change.
  - Check mode runs C(prefs migrate --dry-run); the same report, nothing written.
  - A file refused by the plan, malformed, missing or failed fails the task, each with its
    reason; the others are migrated all the same (a bad file never stops the batch).
  - What C(prefs migrate) warns about on standard error is an Ansible warning of the task,
    each line one warning. With the plan's C(unmapped) V(keep), that is a legacy key within a typo of a key the
    plan maps (its "did you mean"), which the plan keeps as it is while the typed key reads
    its default.
version_added: 0.1.0
author:
  - The prefs maintainers (!UNKNOWN)
extends_documentation_fragment:
  - prefs.fleet.prefs
attributes:
  check_mode:
    support: full
    description: C(prefs migrate --dry-run), the same report, nothing written.
  diff_mode:
    support: none
    description: Not supported.
options:
  plan:
    description:
      - The migration plan (JSON), a path on the managed host (C(prefs plan infer) writes
        one from the files; see the plan format in prefs' C(Docs/plan-format.md)).
    type: path
    required: true
  paths:
    description:
      - The legacy files, domain names (by prefs' rule), or folders of C(.plist) files.
    type: list
    elements: str
    required: true
  in_place:
    description:
      - Replace each legacy file by its migrated store, after a complete backup, under the
        domain's lock. One of O(in_place) and O(to) is required.
    type: bool
    default: false
  backup:
    description:
      - The folder O(in_place) copies the originals to (default, beside each file); made
        (mode 0700) when it is missing, except in check mode.
    type: path
  to:
    description:
      - The new store, for one file; for several, a folder receiving each by its name.
    type: path
  jobs:
    description:
      - Files migrated at a time (default, the core count).
    type: int
  format:
    description:
      - The new store's format.
    type: str
    choices: [binary, xml]
  truncate_dates:
    description:
      - Write dates' fractions of a second away in XML output.
    type: bool
    default: false
seealso:
  - module: prefs.fleet.defaults_facts
"""

EXAMPLES = r"""
- name: Dry run (check mode), then migrate in place with backups
  prefs.fleet.migrate:
    plan: /etc/prefs/equizmo-plan.json
    paths: [com.exmo.equizmo]
    in_place: true
    backup: /var/backups/prefs
  register: migration

- name: Every user's file, as root (owners and modes are kept)
  prefs.fleet.migrate:
    plan: /etc/prefs/equizmo-plan.json
    paths: "{{ query('ansible.builtin.fileglob', '/home/*/.config/com.exmo.equizmo.plist') }}"
    in_place: true

- name: Into a new store, leaving the legacy file as it is
  prefs.fleet.migrate:
    plan: /etc/prefs/equizmo-plan.json
    paths: [/srv/legacy/com.exmo.equizmo.plist]
    to: /srv/store/equizmo.plist
"""

RETURN = r"""
report:
  description:
    - The report of C(prefs migrate --json), unchanged; C(files) (each with C(path),
      C(output), C(status), C(message) and C(keys), one entry per legacy key) and
      C(summary) (the counts of each status and key action, and C(dryRun)).
  returned: when prefs ran
  type: dict
migrated:
  description: The files migrated (or, in check mode, that would be).
  returned: when prefs ran
  type: list
  elements: str
failed_files:
  description: The files refused, malformed, missing or failed, each with its status and reason.
  returned: when prefs ran
  type: list
  elements: dict
messages:
  description: The lines C(prefs migrate) printed on standard error (each also an Ansible warning).
  returned: when prefs ran
  type: list
  elements: str
"""

import json
import os

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.prefs.fleet.plugins.module_utils import prefs

FAILED = ("refused", "malformed", "missing", "failed")


def main():
    module = AnsibleModule(
        argument_spec=dict(
            plan=dict(type="path", required=True),
            paths=dict(type="list", elements="str", required=True),
            in_place=dict(type="bool", default=False),
            backup=dict(type="path"),
            to=dict(type="path"),
            jobs=dict(type="int"),
            format=dict(type="str", choices=["binary", "xml"]),
            truncate_dates=dict(type="bool", default=False),
            **prefs.COMMON_ARGS
        ),
        supports_check_mode=True,
        mutually_exclusive=[("in_place", "to")],
        required_one_of=[("in_place", "to")],
        required_by={"backup": "in_place"},
    )
    p = module.params
    if not p["in_place"] and not p["to"]:
        module.fail_json(msg="one of in_place and to is required")
    if not p["paths"]:
        module.fail_json(msg="paths: give at least one legacy file, domain or folder")
    words = prefs.base_command(module) + ["migrate", "--json", "--plan", p["plan"]]
    words += ["--in-place"] if p["in_place"] else ["--to", p["to"]]
    if p["backup"]:
        if not module.check_mode and not os.path.isdir(p["backup"]):
            try:
                os.makedirs(p["backup"], mode=0o700)
            except OSError as error:
                module.fail_json(msg="backup: cannot make %s: %s" % (p["backup"], error))
        words += ["--backup", p["backup"]]
    if p["jobs"]:
        words += ["--jobs", str(p["jobs"])]
    if p["format"]:
        words += ["--format", p["format"]]
    if p["truncate_dates"]:
        words += ["--truncate-dates"]
    if module.check_mode:
        words += ["--dry-run"]
    words += ["--"] + [prefs.domain_word(path) for path in p["paths"]]
    rc, out, err = prefs.run(module, words)
    try:
        report = json.loads(out)
    except ValueError:
        module.fail_json(msg="prefs migrate failed: %s" % (err.strip() or "exit %d" % rc), rc=rc, stderr=err)
    # What prefs warns about (a "did you mean" under unmapped: keep, a date it truncates) is
    # the administrator's to see: each line an Ansible warning, not only text in the report.
    said = [line[len("prefs: "):] if line.startswith("prefs: ") else line
            for line in err.splitlines() if line.strip()]
    files = report.get("files", [])
    migrated = [f["path"] for f in files if f.get("status") == "migrated"]
    failed = [
        dict(path=f["path"], status=f["status"], msg=f.get("message"))
        for f in files if f.get("status") in FAILED
    ]
    result = dict(changed=bool(migrated), report=report, migrated=migrated, failed_files=failed, rc=rc,
                  messages=said)
    if failed or rc not in (0,):
        reasons = "; ".join("%s: %s (%s)" % (f["path"], f["status"], f["msg"]) for f in failed)
        module.fail_json(msg="prefs migrate: %s" % (reasons or err.strip() or "exit %d" % rc), stderr=err, **result)
    for line in said:
        module.warn(line)
    module.exit_json(**result)


if __name__ == "__main__":
    main()
