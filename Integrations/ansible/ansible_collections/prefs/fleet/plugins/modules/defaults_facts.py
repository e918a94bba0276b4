#!/usr/bin/python
# Copyright (c) the prefs authors

from __future__ import annotations

DOCUMENTATION = r"""
module: defaults_facts
short_description: Gather preferences domains as facts, every value typed
description:
  - Reads preferences domains (NSUserDefaults domains or property-list files) with
    C(prefs read --typed) and sets them as the fact C(prefs_domains), a mapping of each
    domain to its keys and values.
  - Values are typed JSON, exact; booleans, integers (64 bits), reals (floats), strings,
    lists, mappings; a date is C({"$date":"2011-03-14T15:09:26Z"}), data C({"$data":"BASE64"}),
    a non-finite real C({"$real":"nan"}). The same form is what M(prefs.fleet.defaults) takes
    back as a value.
  - Reads only; changes nothing, not even a lock file.
version_added: 0.1.0
author:
  - The prefs maintainers (!UNKNOWN)
extends_documentation_fragment:
  - prefs.fleet.prefs
attributes:
  check_mode:
    support: full
    description: Reading only, the same in check mode.
  diff_mode:
    support: none
    description: Not supported.
  facts:
    support: full
    description: Sets the fact C(prefs_domains).
options:
  domains:
    description:
      - The domains (names, or paths of property-list files, by prefs' rule) to read.
        Default, every domain of the user's preferences folder (C(prefs domains)).
      - A domain named here that does not exist is left out and listed in RV(missing); one
        that cannot be read fails the task. Of the default list, one that cannot be read
        is listed in RV(unreadable).
    type: list
    elements: str
  host:
    description:
      - V(currentHost) reads the current host's (ByHost) domains, another value that host's.
    type: str
seealso:
  - module: prefs.fleet.defaults
"""

EXAMPLES = r"""
- name: Gather two domains
  prefs.fleet.defaults_facts:
    domains: [com.exmo.equizmo, com.example.app]

- name: Use them
  ansible.builtin.debug:
    msg: "{{ ansible_facts.prefs_domains['com.exmo.equizmo']['ranking.size'] }}"

- name: Every domain of the user's preferences folder
  prefs.fleet.defaults_facts:
"""

RETURN = r"""
ansible_facts:
  description: The facts set.
  returned: always
  type: complex
  contains:
    prefs_domains:
      description: Each domain read, by the name given, to its keys and typed values.
      returned: always
      type: dict
missing:
  description: The domains named that do not exist.
  returned: always
  type: list
  elements: str
unreadable:
  description: The domains of the folder's list that could not be read, each with why.
  returned: always
  type: list
  elements: dict
"""

import json

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.prefs.fleet.plugins.module_utils import prefs


def main():
    module = AnsibleModule(
        argument_spec=dict(
            domains=dict(type="list", elements="str"),
            host=dict(type="str"),
            **prefs.COMMON_ARGS
        ),
        supports_check_mode=True,
    )
    base = prefs.base_command(module, module.params["host"])
    named = module.params["domains"] is not None
    names = module.params["domains"]
    if not named:
        rc, out, err = prefs.run(module, base + ["domains", "--json"])
        if rc != 0:
            module.fail_json(msg="prefs domains failed: %s" % err.strip(), rc=rc)
        names = json.loads(out)["domains"]
    domains, missing, unreadable = {}, [], []
    for name in names:
        rc, out, err = prefs.run(module, base + ["read", "--typed", "--", prefs.domain_word(name)])
        if rc == 0:
            domains[name] = json.loads(out)
        elif rc == 1:
            missing.append(name)
        elif named:
            module.fail_json(msg="prefs read %s failed: %s" % (name, err.strip()), rc=rc, domain=name)
        else:
            unreadable.append(dict(domain=name, msg=err.strip(), rc=rc))
    module.exit_json(
        changed=False, ansible_facts=dict(prefs_domains=domains), missing=missing, unreadable=unreadable)


if __name__ == "__main__":
    main()
