#!/usr/bin/python
# Copyright (c) the prefs authors

from __future__ import annotations

DOCUMENTATION = r"""
module: defaults
short_description: Set, remove or read preferences (NSUserDefaults) with prefs
description:
  - Sets, removes or reads one key of a preferences domain (an NSUserDefaults domain or
    property-list file) through the C(prefs) command, on Linux (GNUstep, XDG) and macOS; or
    sets many keys at once (O(values)), in one C(prefs) process and one locked write.
  - Every value reaches C(prefs) as JSON, as the playbook gave it, beside its O(type) when one
    is named (C(prefs write --values -)), never as text a shell or C(defaults) parses; C(prefs)
    alone types it, by the rules of its command line, so every type round-trips exactly
    (booleans, 64-bit integers, reals by value, strings, dates, data, and arrays and
    dictionaries nested to any depth).
  - Idempotent as C(prefs) compares values (exactly, a real by its bits, containers element
    by element); a value equal to the stored one is reported unchanged and not written.
  - Check mode runs C(prefs write --dry-run) and writes nothing; diff mode shows each key's
    value before and after one line a leaf (C(window.frame.2 = 1440)), key paths as C(prefs)
    spells them and values as typed JSON, lossless.
version_added: 0.1.0
author:
  - The prefs maintainers (!UNKNOWN)
extends_documentation_fragment:
  - prefs.fleet.prefs
attributes:
  check_mode:
    support: full
    description: C(prefs write --dry-run) or C(prefs delete --dry-run); nothing is written.
  diff_mode:
    support: full
    description: Each changed key's value before and after, one line a leaf.
options:
  domain:
    description:
      - The domain (C(com.example.app)), or a path to a property-list file. The rule is
        prefs' own, for every verb; a word with a V(/) or ending in V(.plist) is a path, any
        other word a domain name in the user's preferences folder (C($XDG_CONFIG_HOME), else
        C(~/.config), on Linux; C(~/Library/Preferences) on macOS).
      - V(NSGlobalDomain) (or V(-g)) is the global domain.
    type: str
    default: NSGlobalDomain
  key:
    description:
      - The key. A string is one key as written, dots and all (C(sound.enabled) is one
        key, as migrated stores name them).
      - A list is a key path into nested values; keys of dictionaries and indices (integers)
        of arrays, C([window, frame, 2]). Setting makes each dictionary missing on the way.
      - Without a key, O(state=absent) removes the whole domain and O(state=read) reads it.
    type: raw
  type:
    description:
      - The type of O(value), as C(prefs write)'s type flags name it. C(prefs) types the value
        (the module does not). Without a type, the value is as the YAML typed it (a bool, an
        integer, a float is a real, a string, a list an array, a mapping a dictionary).
      - With a type, text is read as the flag reads its word on the command line (V(bool)
        takes C(yes)/C(no)/C(true)/C(false)/C(1)/C(0), V(int) C("12"), V(date)
        C(2011-03-14T15:09:26Z), C(2011-03-14T16:09:26+01:00), C(2011-03-14 15:09:26 +0000)
        or a YAML timestamp, V(data) base64 text), and any other value must be of the type
        (a real takes an integer, a bool 0 or 1, a string an integer's digits).
      - Inside arrays and dictionaries each element is typed as its YAML is; a date or data
        there is the mapping C({"$date":"2011-03-14T15:09:26Z"}) or C({"$data":"BASE64"}),
        as O(state=read) returns them.
    type: str
    choices: [array, bool, boolean, data, date, dict, dictionary, double, float, int, integer, real, string]
  value:
    description:
      - The value to set. Required when O(state=present) with O(key).
    type: raw
  values:
    description:
      - "Many keys to set, a mapping of each key (one key, dots and all) to its value, or to
        a mapping of O(type) and O(value) (C({type: int, value: '12'})), typed as O(value) is."
      - Written in one C(prefs) process and one locked write of the domain; changed only when
        a key's value changes (RV(changed_keys)), nothing written otherwise; check and diff
        modes as for one key.
      - "A dictionary value whose only keys are V(type) and V(value) is given as
        C({type: dict, value: {type: ..., value: ...}})."
      - Not with O(key), O(value), O(type), O(array_add) or O(dict_add); O(check_type) and
        O(truncate_dates) apply to each key.
    type: dict
  state:
    description:
      - V(present) sets the value, V(absent) removes it (or the whole domain without
        O(key)), V(read) reads it and changes nothing (C(community.general.osx_defaults)
        calls it V(list), a word Ansible's module rules keep out of a O(state) option's
        choices).
    type: str
    choices: [present, absent, read]
    default: present
  array_add:
    description:
      - Adds the elements of O(value) (a list) that the array at O(key) does not hold yet,
        compared exactly, after its elements; a second run changes nothing. A key that holds
        nothing takes the list.
    type: bool
    default: false
  dict_add:
    description:
      - Merges the entries of O(value) (a mapping) into the dictionary at O(key), the given
        entries replacing those of the same keys. A key that holds nothing takes the mapping.
    type: bool
    default: false
  check_type:
    description:
      - When the key holds a value of another type than O(value), fail and say so (nothing
        is written). V(false) replaces the stored value whatever its type.
    type: bool
    default: true
  host:
    description:
      - V(currentHost) sets the current host's (ByHost) domain, as C(defaults -currentHost);
        another value names a host, as C(defaults -host NAME).
    type: str
  truncate_dates:
    description:
      - Write a date's fraction of a second away in XML and GNUstep text files (which hold
        whole seconds); without it such a date is refused there (a binary file holds it).
    type: bool
    default: false
notes:
  - The module runs as the remote user. For another user's domains, use C(become_user) (the
    domain names then resolve in that user's preferences folder), or, as root, give the
    file's path (C(prefs) keeps the owner, group and mode of every file it replaces).
  - With C(become_user), the interpreter must be one that user can run - the system's
    C(/usr/bin/python3) (C(ansible_python_interpreter)), not a virtual environment under
    another user's home, which fails every task with C(Permission denied) (rc 126). The
    modules need Python's standard library only.
  - Writes take the domain's lock and replace the file atomically, as every C(prefs) write.
seealso:
  - module: prefs.fleet.defaults_facts
  - module: prefs.fleet.migrate
"""

EXAMPLES = r"""
- name: Forty keys, every type, in one prefs process and one write
  prefs.fleet.defaults:
    domain: com.example.app
    values:
      sound.enabled: true
      ranking.size: 12
      ratio: 0.25
      username: Lucas
      quota: {type: int, value: "8589934592"}
      lastSync: {type: date, value: "2011-03-14T15:09:26Z"}
      token: {type: data, value: yv4=}
      window: {frame: [0, 0, 1280, 800]}

- name: Another user's domain (become_user; the system's python3 as interpreter)
  prefs.fleet.defaults:
    domain: com.exmo.equizmo
    values:
      sound.enabled: true
      ranking.size: 15
  become: true
  become_user: "{{ item }}"
  vars:
    ansible_python_interpreter: /usr/bin/python3
  loop: [alice, bob]

- name: Turn the sound on
  prefs.fleet.defaults:
    domain: com.exmo.equizmo
    key: sound.enabled
    value: true

- name: A 64-bit integer, a real and a date
  prefs.fleet.defaults:
    domain: com.example.app
    key: "{{ item.key }}"
    value: "{{ item.value }}"
    type: "{{ item.type }}"
  loop:
    - {key: quota, value: 8589934592, type: int}
    - {key: ratio, value: 0.1, type: float}
    - {key: lastSync, value: "2011-03-14T15:09:26Z", type: date}

- name: Data, as base64
  prefs.fleet.defaults:
    domain: com.example.app
    key: token
    type: data
    value: yv4=

- name: A nested dictionary, dates inside it tagged
  prefs.fleet.defaults:
    domain: com.example.app
    key: window
    value:
      frame: [0, 0, 1280, 800]
      opened: {"$date": "2024-05-01T09:00:00Z"}

- name: One value deep inside it (a key path)
  prefs.fleet.defaults:
    domain: com.example.app
    key: [window, frame, 2]
    value: 1440

- name: Add a language if it is missing
  prefs.fleet.defaults:
    key: AppleLanguages
    array_add: true
    value: [pt-BR]

- name: Replace a value stored as another type
  prefs.fleet.defaults:
    domain: com.example.app
    key: ranking.size
    value: 12
    check_type: false

- name: The current host's screen saver clock
  prefs.fleet.defaults:
    domain: com.apple.screensaver
    host: currentHost
    key: showClock
    value: true

- name: Read one value, typed
  prefs.fleet.defaults:
    domain: com.example.app
    key: window
    state: read
  register: window

- name: Remove a key
  prefs.fleet.defaults:
    domain: com.example.app
    key: obsolete
    state: absent
"""

RETURN = r"""
value:
  description:
    - The value at O(key) after the task (for O(state=read), the value read; null when there
      is none), as typed JSON; reals are floats, integers ints, a date C({"$date":ISO 8601}),
      data C({"$data":base64}).
  returned: success, with O(key) (not with O(values))
  type: raw
previous:
  description: The value at O(key) before the task, as typed JSON (null when there was none).
  returned: when O(state) is V(present) or V(absent), with O(key)
  type: raw
exists:
  description: Whether the key (or the domain) holds a value after the task.
  returned: success, with O(key) (not with O(values))
  type: bool
value_type:
  description: The type of RV(value) (bool, integer, real, string, date, data, array, dictionary).
  returned: when RV(exists) is true
  type: str
changes:
  description:
    - What changed (or, in check mode, would), as C(prefs write --typed) prints it; one
      object per top-level key with C(domain), C(key), C(change) (set or removed), C(old),
      C(new), C(command) (the C(defaults) line that makes the change) and C(revert).
  returned: when O(state) is V(present) or V(absent)
  type: list
  elements: dict
changed_keys:
  description: With O(values), the keys whose value changed (or, in check mode, would).
  returned: when O(values) is given
  type: list
  elements: str
"""

import json

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.prefs.fleet.plugins.module_utils import prefs

TYPES = ["array", "bool", "boolean", "data", "date", "dict", "dictionary", "double", "float", "int", "integer", "real", "string"]


def main():
    module = AnsibleModule(
        argument_spec=dict(
            domain=dict(type="str", default="NSGlobalDomain"),
            key=dict(type="raw", no_log=False),
            type=dict(type="str", choices=TYPES),
            value=dict(type="raw"),
            values=dict(type="dict"),
            state=dict(type="str", default="present", choices=["present", "absent", "read"]),
            array_add=dict(type="bool", default=False),
            dict_add=dict(type="bool", default=False),
            check_type=dict(type="bool", default=True),
            host=dict(type="str"),
            truncate_dates=dict(type="bool", default=False),
            **prefs.COMMON_ARGS
        ),
        supports_check_mode=True,
        mutually_exclusive=[("array_add", "dict_add"), ("values", "key"), ("values", "value"), ("values", "type"),
                            ("values", "array_add"), ("values", "dict_add")],
        required_if=[("state", "present", ["key", "values"], True)],
        required_by={"value": "key"},
    )
    p = module.params
    if p["state"] == "present" and p["key"] is not None and p["value"] is None:
        module.fail_json(msg="value: give the value to set (state: absent removes the key)", key=p["key"])
    if p["values"] is not None and p["state"] != "present":
        module.fail_json(msg="values: sets keys (state: present); remove keys one at a time with key and state: absent")
    Defaults(module).run()


class Defaults:
    def __init__(self, module):
        self.module = module
        p = module.params
        self.base = prefs.base_command(module, p["host"])
        self.domain = prefs.domain_word(p["domain"])
        self.key = prefs.key_components(p["key"])
        self.is_path = isinstance(self.key, list) and len(self.key) > 1
        if isinstance(self.key, list) and len(self.key) == 1:
            self.key = self.key[0]
        self.header = "%s %s" % (p["domain"], prefs.dumps(p["key"])) if p["key"] is not None else p["domain"]

    def _key_words(self):
        """The words that name the key for read and delete: `--key-path` and its text for a
        key path, the key as it is for one key."""
        if self.key is None:
            return [], [self.domain]
        if self.is_path:
            return ["--key-path"], [self.domain, prefs.key_path_text(self.key)]
        return [], [self.domain, str(self.key)]

    def fail(self, what, rc, err, **extra):
        p = self.module.params
        said = err.strip()
        said = said[len("prefs: "):] if said.startswith("prefs: ") else said
        self.module.fail_json(
            msg="%s: %s" % (what, said or "exit %d" % rc), rc=rc, stderr=err,
            domain=p["domain"], key=p["key"], **extra)

    def read(self):
        """(exists, typed value) at the key (or the whole domain)."""
        flags, operands = self._key_words()
        # `--` before the user's words: a domain or key spelt like an option is that name.
        rc, out, err = prefs.run(self.module, self.base + ["read", "--typed"] + flags + ["--"] + operands)
        if rc == 1:
            return False, None
        if rc != 0:
            self.fail("prefs read failed", rc, err)
        return True, json.loads(out)

    def write(self, assignments):
        """One `prefs write --values -`: every assignment in one process and one locked write
        (a dry run in check mode); the changes prefs printed, one a top-level key."""
        p = self.module.params
        words = ["write", "--typed", "--values", "-"]
        words += ["--same-type"] if p["check_type"] else []
        words += ["--truncate-dates"] if p["truncate_dates"] else []
        words += ["--dry-run"] if self.module.check_mode else []
        try:
            data = prefs.dumps(assignments)
        except prefs.NoJSON as error:
            self.module.fail_json(msg=str(error), domain=p["domain"], key=p["key"])
        rc, out, err = prefs.run(self.module, self.base + words + ["--", self.domain], data=data)
        if rc != 0:
            if "(--same-type)" in err:
                self.fail("Type mismatch", rc, err.strip() + " (check_type: false replaces it)")
            if "cannot append" in err:
                self.fail("Type mismatch", rc, err.strip() + " (check_type: false replaces it)")
            self.fail("prefs write failed", rc, err)
        return prefs.json_lines(out)

    def run(self):
        p = self.module.params
        if p["values"] is not None:
            self.set_values()
        state = p["state"]
        exists, current = self.read()
        if state == "read":
            self.module.exit_json(
                changed=False, exists=exists, value=current, key=p["key"], domain=p["domain"],
                **({"value_type": prefs.type_name(current)} if exists else {}))
        if state == "absent":
            self.remove(exists, current)
        assignment = dict(key=self.key, value=p["value"])
        if p["type"]:
            assignment["type"] = p["type"]
        if p["array_add"] or p["dict_add"]:
            wanted = "array" if p["array_add"] else "dictionary"
            # A value of another type there is replaced by the value (check_type: false), or
            # refused (prefs says so), never added to.
            if not (exists and prefs.type_name(current) != wanted and not p["check_type"]):
                assignment["add"] = "array-union" if p["array_add"] else "dict-add"
        changes = self.write([assignment])
        if changes:
            components = self.key[1:] if self.is_path else []
            after = prefs.at_path(changes[0].get("new"), components)
        else:
            after = current
        self.finish(changes, after, current if exists else None)

    def set_values(self):
        """`values`: every key in one prefs process and one lock; changed only for the keys
        whose value changes."""
        p = self.module.params
        assignments = []
        for key, given in sorted(p["values"].items()):
            # A mapping of value (and type) is one value and its type; anything else, the value.
            if isinstance(given, dict) and "value" in given and set(given) <= {"type", "value"}:
                entry = dict(key=key, value=given["value"])
                if given.get("type") is not None:
                    entry["type"] = given["type"]
            else:
                entry = dict(key=key, value=given)
            assignments.append(entry)
        changes = self.write(assignments)
        result = dict(
            changed=bool(changes), changes=changes, domain=p["domain"],
            changed_keys=[change["key"] for change in changes])
        if self.module._diff:
            result["diff"] = prefs.diff_of(changes, p["domain"])
        self.module.exit_json(**result)

    def remove(self, exists, current):
        if not exists:
            self.finish([], None, None)
        dry = ["--dry-run"] if self.module.check_mode else []
        flags, operands = self._key_words()
        rc, out, err = prefs.run(self.module, self.base + ["delete", "--typed"] + dry + flags + ["--"] + operands)
        if rc == 1:
            self.finish([], None, None)
        if rc != 0:
            self.fail("prefs delete failed", rc, err)
        self.finish(prefs.json_lines(out), None, current)

    def finish(self, changes, after, previous):
        """Exits with the result: the value after (as prefs printed it, or as it was when
        nothing changed), the changes, the diff, one line a leaf."""
        p = self.module.params
        result = dict(
            changed=bool(changes), changes=changes, previous=previous, exists=after is not None,
            value=after, key=p["key"], domain=p["domain"])
        if after is not None:
            result["value_type"] = prefs.type_name(after)
        if self.module._diff:
            result["diff"] = prefs.diff_of(changes, self.header)
        self.module.exit_json(**result)


if __name__ == "__main__":
    main()
