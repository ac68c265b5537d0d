-- SPDX-License-Identifier: GPL-2.0-or-later
-- A small Lua workload for bench/real/run.sh: recursion, tables, strings and
-- a sort, scaled by the first argument. Prints a checksum.
local n = tonumber(arg[1]) or 20
local function fib(k) if k < 2 then return k end return fib(k - 1) + fib(k - 2) end
local sum = fib(n)
local t = {}
for i = 1, n * 2000 do t[i] = (i * 7919) % 10007 end
table.sort(t)
local words = {}
for i = 1, n * 500 do words[#words + 1] = string.format("w%d", t[i] % 97) end
local s = table.concat(words, " ")
local count = {}
for w in s:gmatch("%S+") do count[w] = (count[w] or 0) + 1 end
for _, v in pairs(count) do sum = sum + v end
print(string.format("lua n %d checksum %d", n, sum))
