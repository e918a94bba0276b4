# Copyright (c) the prefs authors

from __future__ import annotations


class ModuleDocFragment:
    """The options every prefs.fleet module takes to reach the prefs binary."""

    DOCUMENTATION = r"""
options:
  executable:
    description:
      - The C(prefs) binary. Default, C(prefs) on C(PATH), else in C(/usr/bin) or C(/usr/local/bin).
    type: path
  layout:
    description:
      - Where domain names resolve (C(prefs --layout)); V(gnustep) is GNUstep's defaults
        folder, as GNUstep's configuration says. Default, the platform's.
    type: str
    choices: [xdg, macos, gnustep]
"""
