from debug_agent.cli import main

raise SystemExit(main())
