#!/usr/bin/python
# Copyright (c) the prefs authors

from __future__ import annotations

DOCUMENTATION = r"""
module: defaults
short_description: Set, remove or read one preference (NSUserDefaults) with prefs
description:
  - Sets, removes or reads one key of a preferences domain (an NSUserDefaults domain or
    property-list file) through the C(prefs) command, on Linux (GNUstep, XDG) and macOS.
  - Every value reaches C(prefs) as typed JSON, never as text a shell or C(defaults) parses,
    so every type round-trips exactly (booleans, 64-bit integers, reals by value, strings,
    dates, data, and arrays and dictionaries nested to any depth).
  - Idempotent as C(prefs) compares values (exactly, a real by its bits, containers element
    by element); a value equal to the stored one is reported unchanged and not written.
  - Check mode runs C(prefs write --dry-run) and writes nothing; diff mode shows the
    C(defaults) lines that make the value before and after, as C(prefs diff) prints them,
    lossless.
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
    description: The C(defaults) line of the value before and of the value after.
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
      - The type of O(value). Without it the value is typed as the YAML is; a bool, an
        integer, a float (real), a string, a list (array), a mapping (dictionary).
      - V(date) takes C(2011-03-14T15:09:26Z), C(2011-03-14 15:09:26 +0000) or a YAML
        timestamp; V(data) takes base64 text.
      - Inside arrays and dictionaries each element is typed as its YAML is; a date or data
        there is the mapping C({"$date":"2011-03-14T15:09:26Z"}) or C({"$data":"BASE64"}),
        as O(state=read) returns them.
    type: str
    choices: [array, bool, boolean, data, date, dict, dictionary, float, int, integer, real, string]
  value:
    description:
      - The value to set. Required when O(state=present).
    type: raw
  state:
    description:
      - V(present) sets the value, V(absent) removes it (or the whole domain without
        O(key)), V(read) reads it and changes nothing (C(community.general.osx_defaults)
        calls it V(list)).
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
  - The module runs as the remote user (use C(become_user) for another user's domains, or
    give the file's path; C(prefs) keeps the owner, group and mode of every file it replaces).
  - Writes take the domain's lock and replace the file atomically, as every C(prefs) write.
seealso:
  - module: prefs.fleet.defaults_facts
  - module: prefs.fleet.migrate
"""

EXAMPLES = r"""
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
  returned: success
  type: raw
previous:
  description: The value at O(key) before the task, as typed JSON (null when there was none).
  returned: when O(state) is V(present) or V(absent)
  type: raw
exists:
  description: Whether the key (or the domain) holds a value after the task.
  returned: success
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
"""

import json

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.prefs.fleet.plugins.module_utils import prefs


def main():
    module = AnsibleModule(
        argument_spec=dict(
            domain=dict(type="str", default="NSGlobalDomain"),
            key=dict(type="raw", no_log=False),
            type=dict(type="str", choices=["array", "bool", "boolean", "data", "date", "dict", "dictionary", "float", "int", "integer", "real", "string"]),
            value=dict(type="raw"),
            state=dict(type="str", default="present", choices=["present", "absent", "read"]),
            array_add=dict(type="bool", default=False),
            dict_add=dict(type="bool", default=False),
            check_type=dict(type="bool", default=True),
            host=dict(type="str"),
            truncate_dates=dict(type="bool", default=False),
            **prefs.COMMON_ARGS
        ),
        supports_check_mode=True,
        required_if=[("state", "present", ["key", "value"])],
        mutually_exclusive=[("array_add", "dict_add")],
    )
    p = module.params
    try:
        Defaults(module).run()
    except prefs.ValueError_ as error:
        module.fail_json(msg=str(error), domain=p["domain"], key=p["key"])


class Defaults:
    def __init__(self, module):
        self.module = module
        p = module.params
        self.base = prefs.base_command(module, p["host"])
        self.domain = prefs.domain_word(p["domain"])
        self.key, self.is_path = prefs.key_path(p["key"]) if p["key"] is not None else (None, False)

    def _key_words(self):
        words = ["--key-path"] if self.is_path else []
        return words, [self.domain] + ([self.key] if self.key is not None else [])

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

    def fail(self, what, rc, err, **extra):
        self.module.fail_json(
            msg="%s: %s" % (what, err.strip() or "exit %d" % rc), rc=rc, stderr=err,
            domain=self.module.params["domain"], key=self.module.params["key"], **extra)

    def run(self):
        p = self.module.params
        state = p["state"]
        exists, current = self.read()
        if state == "read":
            self.module.exit_json(
                changed=False, exists=exists, value=current, key=p["key"], domain=p["domain"],
                **({"value_type": prefs.type_name(current)} if exists else {}))
        dry = ["--dry-run"] if self.module.check_mode else []
        flags, operands = self._key_words()
        if state == "absent":
            if not exists:
                self.finish([], False, None, None)
            rc, out, err = prefs.run(self.module, self.base + ["delete", "--typed"] + dry + flags + ["--"] + operands)
            if rc == 1:
                self.finish([], False, None, None)
            if rc != 0:
                self.fail("prefs delete failed", rc, err)
            self.finish(prefs.json_lines(out), False, None, current)

        value = prefs.typed(p["value"], p["type"])
        adding = p["array_add"] or p["dict_add"]
        wanted = "array" if p["array_add"] else "dictionary" if p["dict_add"] else prefs.type_name(value)
        if adding and prefs.type_name(value) != wanted:
            raise prefs.ValueError_("value: %s takes a %s" % (
                "array_add" if p["array_add"] else "dict_add", "list" if p["array_add"] else "mapping"))
        replacing = False
        if exists and prefs.type_name(current) != wanted:
            if p["check_type"]:
                self.module.fail_json(
                    msg="Type mismatch: %s holds %s, the value is %s (check_type: false replaces it)"
                    % (self.key, prefs.article(prefs.type_name(current)), prefs.article(wanted)),
                    previous=current, value_type=prefs.type_name(current))
            replacing = True
        if adding and not replacing:
            if p["array_add"]:
                words = ["-array-union"]
                for element in value:
                    words += ["-json", prefs.dumps(element)]
            else:
                words = ["-dict-add"]
                for k, v in sorted(value.get("$dict", value).items()):
                    words += ["-string", k, "-json", prefs.dumps(v)]
        else:
            words = ["-json", prefs.dumps(value)]
        options = ["--truncate-dates"] if p["truncate_dates"] else []
        rc, out, err = prefs.run(
            self.module, self.base + ["write", "--typed"] + options + dry + flags + ["--"] + operands + words)
        if rc != 0:
            self.fail("prefs write failed", rc, err)
        self.finish(prefs.json_lines(out), True, None, current if exists else None)

    def finish(self, changes, present, _unused, previous):
        """Exits with the result: the value after (read again after a write; in check mode,
        or when nothing changed, as it would be), the changes, the diff."""
        p = self.module.params
        if self.module.check_mode or not changes:
            after_exists, after = (self._predicted(changes, present, previous))
        else:
            after_exists, after = self.read()
        result = dict(
            changed=bool(changes), changes=changes, previous=previous, exists=after_exists,
            value=after, key=p["key"], domain=p["domain"])
        if after_exists:
            result["value_type"] = prefs.type_name(after)
        if self.module._diff:
            result["diff"] = prefs.diff_of(changes, "%s %s" % (p["domain"], prefs.dumps(p["key"])))
        self.module.exit_json(**result)

    def _predicted(self, changes, present, previous):
        """The value after a dry run or no change, without writing to learn it."""
        if not changes:
            return (previous is not None, previous) if present else (False, None)
        if not present:
            return False, None
        if not self.is_path and self.key is not None:
            new = changes[0].get("new")
            return new is not None, new
        # A key path: the value given, unless it is added to what is there.
        p = self.module.params
        adding = p["array_add"] or p["dict_add"]
        return True, None if adding else prefs.typed(p["value"], p["type"])


if __name__ == "__main__":
    main()
