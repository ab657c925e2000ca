# dbrig guest setup for SQL Server on Windows (vm-templates/windows-sqlserver-setup.ps1): the
# Windows Server 2012 R2 / SQL Server 2014 SP3 guests of the published runs. Copied by hand
# into the base image as C:\dbrig\setup.ps1 and run at every boot, as SYSTEM, by the
# scheduled task vm-templates/windows-sqlserver.md creates (no seed reaches a Windows
# guest: "cloud_init": false). Idempotent. Its parameters are data in C:\dbrig\setup.conf
# (name=value lines, readable by SYSTEM and Administrators only), written by hand when
# the image is built and read and checked here, never run:
#   db_user      [A-Za-z0-9_]+  the drivers' login (sysadmin), .target.db_user
#   db_password  [A-Za-z0-9._+=@%:,~-]+, 12..128: the line of the campaign's
#                .target.db_password_file (the same file's text on the driver host)
#   db_name      [A-Za-z0-9_]+  the workload's database (tpcc)
#   db_port      digits         SQL Server's TCP port (1433, .target.db_port)
#   max_server_memory_mb, data_size_mb, log_size_mb   empty or digits
#   recovery     empty, SIMPLE, FULL or BULK_LOGGED (empty: SIMPLE, dbrig's default)
# What it does at every boot:
#   - the under-test disk (serial dbrig-undertest) online and writable (Windows' SAN policy
#     OfflineShared leaves a disk it has not seen offline; a restored clone is one), NTFS with
#     64 KiB clusters when it has no partition yet, drive letter D:, folder D:\mssql
#   - the login db_user with db_password, sysadmin (password reset to the file's at every boot)
#   - the database db_name: created pre-sized (data_size_mb, log_size_mb, growing by 1 GB) on
#     a fresh disk (VM 1, before the golden copy is loaded), attached from D:\mssql
#     (CREATE DATABASE ... FOR ATTACH) on a restored clone whose files this instance's master
#     has never seen (VMs 2-4, and VM 1 after a restore); its recovery model set
#   - 'max server memory (MB)' set with sp_configure when max_server_memory_mb is
# It connects with Windows authentication as SYSTEM (the image's setup makes NT
# AUTHORITY\SYSTEM a sysadmin), so no password is on a command line; the T-SQL goes to
# sqlcmd in a file only SYSTEM and Administrators can read.
# No PowerShell parser is in Debian: dbrig's CI checks this file's structure
# (tests/lint/ps1.py), not its behaviour; it has not been run by dbrig's CI.
$ErrorActionPreference = 'Stop'
Set-StrictMode -Version 2.0
$log = 'C:\dbrig\setup.log'
function Write-Log([string]$msg) {
	$line = (Get-Date -Format 'yyyy-MM-ddTHH:mm:ss') + ' dbrig-setup: ' + $msg
	Add-Content -Path $log -Value $line
}
function Stop-Setup([string]$msg) {
	Write-Log $msg
	exit 1
}

# The parameters, as data: one name=value per line, every value checked against its grammar.
$conf = 'C:\dbrig\setup.conf'
if (-not (Test-Path -LiteralPath $conf)) { Stop-Setup "$conf is missing (write it when you build the image)" }
$p = @{ db_user = ''; db_password = ''; db_name = ''; db_port = ''; max_server_memory_mb = ''; data_size_mb = ''; log_size_mb = ''; recovery = '' }
foreach ($line in Get-Content -LiteralPath $conf) {
	if ($line -eq '' -or $line.StartsWith('#')) { continue }
	$i = $line.IndexOf('=')
	$k = if ($i -gt 0) { $line.Substring(0, $i) } else { $line }
	if ($i -lt 1 -or -not $p.ContainsKey($k)) {
		Stop-Setup "${conf}: unexpected line $k (expected db_user, db_password, db_name, db_port, max_server_memory_mb, data_size_mb, log_size_mb or recovery)"
	}
	$p[$k] = $line.Substring($i + 1)
}
if ($p.db_user -cnotmatch '^[A-Za-z0-9_]{1,32}$') { Stop-Setup "${conf}: db_user is not [A-Za-z0-9_]+" }
if ($p.db_name -cnotmatch '^[A-Za-z0-9_]{1,64}$') { Stop-Setup "${conf}: db_name is not [A-Za-z0-9_]+" }
if ($p.db_password -cnotmatch '^[A-Za-z0-9._+=@%:,~-]{12,128}$') { Stop-Setup "${conf}: db_password is not 12 to 128 of [A-Za-z0-9._+=@%:,~-]" }
if ($p.db_port -cnotmatch '^[0-9]{1,5}$') { Stop-Setup "${conf}: db_port is not a number" }
foreach ($k in @('max_server_memory_mb', 'data_size_mb', 'log_size_mb')) {
	if ($p[$k] -cnotmatch '^[0-9]{0,9}$') { Stop-Setup "${conf}: $k is not a number" }
}
if ($p.recovery -eq '') { $p.recovery = 'SIMPLE' }
if ($p.recovery -cnotmatch '^(SIMPLE|FULL|BULK_LOGGED)$') { Stop-Setup "${conf}: recovery is not SIMPLE, FULL or BULK_LOGGED" }

# The under-test disk: online, writable, D:.
$disk = $null
for ($n = 0; $n -lt 60 -and -not $disk; $n++) {
	$disk = Get-Disk | Where-Object { $_.SerialNumber -and $_.SerialNumber.Trim() -eq 'dbrig-undertest' } | Select-Object -First 1
	if (-not $disk) { Start-Sleep -Seconds 1 }
}
if (-not $disk) { Stop-Setup 'no disk with serial dbrig-undertest' }
if ($disk.IsOffline) { Set-Disk -Number $disk.Number -IsOffline $false }
if ($disk.IsReadOnly) { Set-Disk -Number $disk.Number -IsReadOnly $false }
$disk = Get-Disk -Number $disk.Number
if ($disk.PartitionStyle -eq 'RAW') {
	Initialize-Disk -Number $disk.Number -PartitionStyle GPT
	$part = New-Partition -DiskNumber $disk.Number -UseMaximumSize -DriveLetter D
	Format-Volume -Partition $part -FileSystem NTFS -AllocationUnitSize 65536 -NewFileSystemLabel 'dbrig-data' -Confirm:$false | Out-Null
	Write-Log "disk $($disk.Number): formatted NTFS (64 KiB clusters) as D:"
}
$part = Get-Partition -DiskNumber $disk.Number | Where-Object { $_.Type -eq 'Basic' -or $_.Type -eq 'IFS' } | Select-Object -First 1
if (-not $part) { Stop-Setup "disk $($disk.Number) (dbrig-undertest) has no data partition" }
if ($part.DriveLetter -ne 'D') { Set-Partition -DiskNumber $disk.Number -PartitionNumber $part.PartitionNumber -NewDriveLetter D }
$dir = 'D:\mssql'
if (-not (Test-Path -LiteralPath $dir)) { New-Item -ItemType Directory -Path $dir | Out-Null }

# SQL Server up, reached over TCP on db_port as the drivers reach it.
Start-Service -Name 'MSSQLSERVER'
$server = 'tcp:127.0.0.1,' + $p.db_port
$up = $false
for ($n = 0; $n -lt 120 -and -not $up; $n++) {
	& sqlcmd.exe -E -S $server -b -Q 'SELECT 1' | Out-Null
	$up = ($LASTEXITCODE -eq 0)
	if (-not $up) { Start-Sleep -Seconds 1 }
}
if (-not $up) { Stop-Setup "SQL Server does not answer on $server" }

# T-SQL quoting: a string literal doubles ', an identifier in [] doubles ] (the grammars
# above leave neither; doubling keeps them literals if they ever grow one).
function Format-Str([string]$s) { "N'" + $s.Replace("'", "''") + "'" }
function Format-Ident([string]$s) { '[' + $s.Replace(']', ']]') + ']' }
$db = Format-Ident $p.db_name
$user = Format-Ident $p.db_user
$mdf = Join-Path $dir ($p.db_name + '.mdf')
$ldf = Join-Path $dir ($p.db_name + '_log.ldf')
if (Test-Path -LiteralPath $mdf) {
	$make = "CREATE DATABASE $db ON (FILENAME = $(Format-Str $mdf)), (FILENAME = $(Format-Str $ldf)) FOR ATTACH;"
} else {
	$dsize = if ($p.data_size_mb) { ", SIZE = $($p.data_size_mb)MB" } else { '' }
	$lsize = if ($p.log_size_mb) { ", SIZE = $($p.log_size_mb)MB" } else { '' }
	$make = "CREATE DATABASE $db ON (NAME = $(Format-Str $p.db_name), FILENAME = $(Format-Str $mdf)$dsize, FILEGROWTH = 1024MB) " +
		"LOG ON (NAME = $(Format-Str ($p.db_name + '_log')), FILENAME = $(Format-Str $ldf)$lsize, FILEGROWTH = 1024MB);"
}
$batch = @(
	"IF NOT EXISTS (SELECT 1 FROM sys.server_principals WHERE name = $(Format-Str $p.db_user))",
	"  CREATE LOGIN $user WITH PASSWORD = $(Format-Str $p.db_password), CHECK_POLICY = OFF;",
	"ELSE",
	"  ALTER LOGIN $user WITH PASSWORD = $(Format-Str $p.db_password);",
	"ALTER SERVER ROLE sysadmin ADD MEMBER $user;",
	"IF DB_ID($(Format-Str $p.db_name)) IS NULL $make",
	'GO',
	"ALTER DATABASE $db SET RECOVERY $($p.recovery);",
	'GO'
)
if ($p.max_server_memory_mb) {
	$batch += @(
		"EXEC sp_configure 'show advanced options', 1;", 'RECONFIGURE;',
		"EXEC sp_configure 'max server memory (MB)', $($p.max_server_memory_mb);", 'RECONFIGURE;', 'GO'
	)
}
$file = 'C:\dbrig\setup.sql'
Set-Content -LiteralPath $file -Value $batch -Encoding Unicode
try {
	& sqlcmd.exe -E -S $server -b -i $file | Out-Null
	$rc = $LASTEXITCODE
} finally {
	Remove-Item -LiteralPath $file -Force
}
if ($rc -ne 0) { Stop-Setup "sqlcmd failed ($rc) setting up login $($p.db_user) and database $($p.db_name)" }
Write-Log "SQL Server ready on port $($p.db_port), database $($p.db_name) (recovery $($p.recovery))"
