/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The flame graph's style sheet and script, kept in the SVG so that it
 * needs nothing else to open: frames zoom on click (the frame fills the
 * width, its ancestors span it, what lies beside it is hidden), Search
 * highlights the frames whose name matches a regular expression and tells
 * their share, Escape undoes both. */
#ifndef UFT_FLAME_SCRIPT_H
#define UFT_FLAME_SCRIPT_H

static const char flame_style[] =
    "text{font-family:monospace;font-size:12px;fill:#000}"
    "#title{text-anchor:middle;font-size:16px}#sub{text-anchor:middle;fill:#555}"
    "#search,#reset{cursor:pointer;fill:#226}#matched,#omitted{fill:#555}"
    "g.f:hover rect{stroke:#000;stroke-width:0.5}g.f text{pointer-events:none}";

static const char flame_script[] =
    "(function(){\n"
    "var svg=document.getElementById('flame'),W=+svg.getAttribute('data-width'),"
    "P=+svg.getAttribute('data-pad'),FW=W-2*P;\n"
    "var frames=[].slice.call(svg.querySelectorAll('g.f'));\n"
    "frames.forEach(function(g){var r=g.querySelector('rect');"
    "g._x=+r.getAttribute('x');g._w=+r.getAttribute('width');g._y=+r.getAttribute('y');"
    "g._fill=r.getAttribute('fill');var t=g.querySelector('title').textContent;"
    "g._name=t.substring(0,t.lastIndexOf(' ('));});\n"
    "function label(g,w){var t=g.querySelector('text'),n=Math.floor((w-6)/7);"
    "t.textContent=n<3?'':g._name.length<=n?g._name:g._name.substring(0,n-2)+'..';}\n"
    "function place(g,x,w,show){var r=g.querySelector('rect');r.setAttribute('x',x);"
    "r.setAttribute('width',w);g.querySelector('text').setAttribute('x',x+3);"
    "g.style.display=show?'':'none';label(g,w);}\n"
    "function zoom(z){var e=1e-6;frames.forEach(function(g){"
    "if(g._y>=z._y&&g._x<=z._x+e&&g._x+g._w>=z._x+z._w-e)place(g,P,FW,true);"
    "else if(g._y<z._y&&g._x>=z._x-e&&g._x+g._w<=z._x+z._w+e)"
    "place(g,P+(g._x-z._x)/z._w*FW,g._w/z._w*FW,true);else place(g,g._x,g._w,false);});"
    "document.getElementById('reset').setAttribute('visibility','visible');}\n"
    "function unzoom(){frames.forEach(function(g){place(g,g._x,g._w,true);});"
    "document.getElementById('reset').setAttribute('visibility','hidden');}\n"
    "function search(re){var m=[],sum=0,end=-1;frames.forEach(function(g){"
    "var hit=re&&re.test(g._name);g.querySelector('rect').setAttribute('fill',"
    "hit?'rgb(230,0,230)':g._fill);if(hit)m.push([g._x,g._x+g._w]);});"
    "m.sort(function(a,b){return a[0]-b[0];});m.forEach(function(s){"
    "if(s[0]>=end){sum+=s[1]-s[0];end=s[1];}else if(s[1]>end){sum+=s[1]-end;end=s[1];}});"
    "document.getElementById('matched').textContent=re?'Matched: '+"
    "(FW?100*sum/FW:0).toFixed(1)+'%':'';svg.setAttribute('data-matched',m.length);}\n"
    "function ask(){var s=window.prompt('Search (regular expression)','');"
    "if(s===null)return;try{search(s?new RegExp(s):null);}catch(err){search(null);}}\n"
    "frames.forEach(function(g){g.addEventListener('click',function(){"
    "if(g._name==='all')unzoom();else zoom(g);});label(g,g._w);});\n"
    "document.getElementById('reset').addEventListener('click',unzoom);\n"
    "document.getElementById('search').addEventListener('click',ask);\n"
    "window.addEventListener('keydown',function(ev){"
    "if(ev.key==='Escape'){unzoom();search(null);}"
    "else if((ev.ctrlKey||ev.metaKey)&&ev.key==='f'){ev.preventDefault();ask();}});\n"
    "svg.flameSearch=function(s){search(s?new RegExp(s):null);};"
    "svg.flameZoom=function(name){for(var i=0;i<frames.length;i++)"
    "if(frames[i]._name===name){zoom(frames[i]);return true;}return false;};\n"
    "})();\n";

#endif
