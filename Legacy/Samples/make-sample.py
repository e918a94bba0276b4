#!/usr/bin/env python3
"""Writes com.exmo.equizmo.plist: the defaults file the legacy app left behind, made with
python's plistlib (an independent writer), in binary as iOS stores it. The keys are the
Objective-C Preference class's (PREFS_SOUND_ENABLED, PREFS_RANKING_SIZE) and the two Swift
seed apps' old layouts (colorMode raw string, nombreUsuario, seed-001 JSON bytes), with values
hand-edited the way users and old versions did: "YES" for a bool, " 12" for an integer, a
color mode no version of the app knows ("Sepia")."""
import datetime, json, os, plistlib

here = os.path.dirname(os.path.abspath(__file__))
compact = dict(separators=(",", ":"))
sample = {
    "PREFS_SOUND_ENABLED": "YES",
    "PREFS_RANKING_SIZE": " 12",
    "colorMode": "Sepia",
    "nombreUsuario": "Grijander",
    "currentLocation": json.dumps({"address": "Seoul", "lat": "37.5665", "lon": "126.9780"}, **compact).encode(),
    "locationHistory": json.dumps({"history": [
        {"address": "Seoul", "lat": "37.5665", "lon": "126.9780"},
        {"address": "Busan", "lat": "35.1796", "lon": "129.0756"}]}, **compact).encode(),
    "NSLanguages": ["pt-BR", "en"],
    "lastLaunch": datetime.datetime(2014, 5, 2, 18, 30, 5),  # naive = UTC for plistlib
}
with open(os.path.join(here, "com.exmo.equizmo.plist"), "wb") as f:
    f.write(plistlib.dumps(sample, fmt=plistlib.FMT_BINARY, sort_keys=True))
